/**
 * Parameters of the five archetypes (docs/RULES.md §7.1) and their holdout variants (§7.2), one table
 * each. Money in credits (the unit of `tradeGain`), probabilities in [0, 1], time in rounds.
 */
import type { ArchetypeName } from '../types.js';
import { EXPLOITATIVE_GAIN } from '../handlers/offers.js';

export interface ArchetypeParams {
  /** Minimum own gain (credits, `tradeGain`) to accept an incoming offer. */
  acceptThreshold: number;
  /** Probability that a public message or pitch is truthful (deceptive < 1). */
  honesty: number;
  /** Trust in partners: minimum partner reputation to deal with or join is `1 − trust`. */
  trust: number;
  /** Appetite for risk: rounds before a deadline at which buying starts (0 = only when due next round). */
  risk: number;
  /** Credits paid above the estimated seller's loss when buying a block. */
  generosity: number;
  /** Extra credits offered when the job needing the block is due within `panicWindow` rounds. */
  overpay: number;
  /** Rounds before a deadline that count as "near" (threshold falls, overpay applies). */
  panicWindow: number;
  /** Credits the acceptance threshold falls per round closer to the nearest deadline inside the window. */
  panicSlope: number;
  /**
   * Own gain below which an incoming offer is exploitative (retaliatory rejects/counters, then refuses that lab;
   * rules v3). The training value is the engine's grudge threshold, so the seat acts on the grudge the engine records.
   */
  exploitGain: number;
  /** Proposes coalitions itself. */
  proposesCoalitions: boolean;
  /** Joins coalitions it is invited to. */
  joinsCoalitions: boolean;
  /** Commits spare blocks when it joins. */
  commitsBlocks: boolean;
  /** Credits of escrow committed with its blocks (selfish: never). */
  commitPayment: number;
  /** Sends offers for blocks its jobs need. */
  buys: boolean;
  /** Pitches when it has unmet demand. */
  pitches: boolean;
  /** Credits added to the price it names when it haggles (counter-offer with an ask; rules v3). */
  markup: number;
  /** Share of an emergency-auction lot's value (to its own position) it bids (rules v3). */
  bidShare: number;
}

const base: ArchetypeParams = {
  acceptThreshold: 2,
  honesty: 1,
  trust: 0.6,
  risk: 2,
  generosity: 4,
  overpay: 0,
  panicWindow: 0,
  panicSlope: 0,
  exploitGain: -Infinity,
  proposesCoalitions: false,
  joinsCoalitions: true,
  commitsBlocks: true,
  commitPayment: 0,
  buys: true,
  pitches: true,
  markup: 0,
  bidShare: 0.5,
};

/** Train parameters (docs/RULES.md §7.1). Thresholds from §7.1: cooperative −2, selfish 8, retaliatory exploit −5. */
export const TRAIN_PARAMS: Record<ArchetypeName, ArchetypeParams> = {
  cooperative: { ...base, acceptThreshold: -2, trust: 0.7, generosity: 6, proposesCoalitions: true, commitPayment: 2 },
  selfish: { ...base, acceptThreshold: 8, trust: 0.4, generosity: 1, commitsBlocks: false, risk: 1, bidShare: 0.35 },
  deadline_panicked: {
    ...base,
    acceptThreshold: 4,
    generosity: 4,
    overpay: 10,
    panicWindow: 2,
    panicSlope: 4,
    risk: 1,
    commitsBlocks: false,
    bidShare: 0.7,
  },
  deceptive: { ...base, acceptThreshold: 3, honesty: 0.3, trust: 0.8, generosity: 2, markup: 4, bidShare: 0.45 },
  retaliatory: { ...base, acceptThreshold: 2, trust: 0.5, generosity: 4, exploitGain: EXPLOITATIVE_GAIN },
};

/** Holdout parameters (docs/RULES.md §7.2): shifted thresholds, honesty, trust, risk and prices. */
export const HOLDOUT_PARAMS: Record<ArchetypeName, ArchetypeParams> = {
  cooperative: { ...TRAIN_PARAMS.cooperative, acceptThreshold: -4, trust: 0.8, generosity: 8, risk: 3, bidShare: 0.55 },
  selfish: {
    ...TRAIN_PARAMS.selfish,
    acceptThreshold: 12,
    trust: 0.3,
    generosity: 0,
    risk: 0,
    markup: 2,
    bidShare: 0.3,
  },
  deadline_panicked: {
    ...TRAIN_PARAMS.deadline_panicked,
    acceptThreshold: 6,
    overpay: 14,
    panicWindow: 3,
    panicSlope: 3,
  },
  deceptive: {
    ...TRAIN_PARAMS.deceptive,
    acceptThreshold: 5,
    honesty: 0.15,
    trust: 0.9,
    generosity: 1,
    markup: 6,
    bidShare: 0.4,
  },
  retaliatory: {
    ...TRAIN_PARAMS.retaliatory,
    acceptThreshold: 4,
    trust: 0.4,
    exploitGain: -3,
    generosity: 3,
    bidShare: 0.45,
  },
};

/** The parameter set a seat uses (`holdout` from the policy context). */
export const archetypeParams = (name: ArchetypeName, holdout: boolean): ArchetypeParams =>
  (holdout ? HOLDOUT_PARAMS : TRAIN_PARAMS)[name];
