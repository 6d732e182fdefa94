/**
 * Plain-data types of the arena engine. Everything here is JSON-serialisable:
 * a {@link MatchState} is persisted, replayed and compared byte for byte.
 *
 * Units: money in credits (2 dp), capacity in GPU-hours, time in rounds (0-based),
 * reliability in [0, 1], reward scores and rewards as documented on {@link RewardBreakdown}.
 * Rules: docs/RULES.md (§A says which rules and numbers come from the original arena).
 */
import type { RewardEntry, RewardSource } from './reward-source.js';
import type { PolicyName } from './policy-names.js';
export type { RewardEntry, RewardSource };

/** Task presets (docs/RULES.md §1). */
export type TaskName = 'single_trade' | 'market_round' | 'coalition_market';
/** All task presets, in difficulty order. */
export const TASK_NAMES: readonly TaskName[] = ['single_trade', 'market_round', 'coalition_market'];

/** Difficulty of a task: single_trade easy, market_round medium, coalition_market hard (docs/RULES.md §1). */
export type Difficulty = 'easy' | 'medium' | 'hard';

/** `lab_<i>`; every lab is a seat. */
export type LabId = string;
/** `b_<lab>_<j>`, or `b_s<round>_<k>` for capacity that a shock adds. */
export type BlockId = string;
/** `j_<lab>_<j>`, or `j_<lab>_surge_<round>`. */
export type JobId = string;
/** `o_<k>`, k = 1, 2, … in creation order. */
export type OfferId = string;
/** `c_<k>`, k = 1, 2, … in creation order. */
export type CoalitionId = string;

export * from './policy-names.js';

/** What `createMatch` takes (validated by `MatchConfigSchema` in config.ts). */
export interface MatchConfig {
  task: TaskName;
  /** All randomness of the match derives from it ({@link Seed}). */
  seed: Seed;
  /** Use the holdout archetype parameters (docs/RULES.md §7.2). Default false. */
  holdout: boolean;
  /**
   * Seats driven by a scripted policy, acting at every round close. Seats not listed are driven from
   * outside (a person, an LLM, the gym caller) through `applyAction`.
   */
  scripted: Record<LabId, PolicyName>;
  /** Actions a seat may take in one round before `action_limit` (default 12). */
  maxActionsPerRound: number;
  /**
   * The rules version the match plays under (docs/RULES.md §0; {@link RulesVersion}). Absent means 3, so
   * a v3 state keeps its exact JSON; every newer version is stored.
   */
  rules?: RulesVersion;
}

/**
 * A match seed: an integer ≥ 0 (chosen by a host for practice, or by a trainer), or a match secret of 128
 * bits written as 32 lowercase hex digits, drawn at random for hosted matches so that nothing public lets
 * anyone find it by trying seeds (docs/RULES.md §0; published when the match is over).
 */
export type Seed = number | string;

/** Rules versions this engine can play: 3 (replay of stored matches) and 4 (the current rules). */
export type RulesVersion = 3 | 4;

/** Constants derived from the task at creation (docs/RULES.md §1). */
export interface WorldParams {
  difficulty: Difficulty;
  labCount: number;
  maxRounds: number;
  blocksPerLab: number;
  jobsPerLab: number;
  coalitionsEnabled: boolean;
}

/** Life of a block; "live" = available or reserved (docs/RULES.md §3). Used and failed are final. */
export type BlockStatus = 'available' | 'reserved' | 'committed' | 'used' | 'failed';

/** A block of GPU capacity owned by one lab (docs/RULES.md §1; reliability in [0, 1]). */
export interface Block {
  id: BlockId;
  owner: LabId;
  gpuCount: number;
  /** Rounds of compute; gpuHours = gpuCount × duration. */
  duration: number;
  gpuHours: number;
  reliability: number;
  /** Credits of value lost when the block is used for a job. */
  energyCost: number;
  status: BlockStatus;
  /** Job id (or the lab id) a reservation is for; null unless status is reserved. */
  reservedFor: string | null;
  /** Coalition the block is committed to; null unless status is committed. */
  committedTo: CoalitionId | null;
  /** Job the block was used for; null unless status is used. */
  usedFor: JobId | null;
  /**
   * The lab that last sold or swapped this block to its owner through a trade (undefined if never traded).
   * A completed job that used it earns negotiation_efficiency for both sides (docs/RULES.md §4.1).
   */
  tradedFrom?: LabId;
}

/** Job outcome; stays `pending` until the job settles, even when fully allocated (docs/RULES.md §3.10, §4.3). */
export type JobOutcome = 'pending' | 'completed' | 'partial' | 'missed';

/** A lab's private compute job; settles for baseValue × urgencyMultiplier × credit − energyCost credits (docs/RULES.md §1, §4.3). */
export interface Job {
  id: JobId;
  owner: LabId;
  gpuHoursRequired: number;
  /** Settles when this round closes (0-based). */
  deadlineRound: number;
  baseValue: number;
  urgencyMultiplier: number;
  minReliability: number;
  partialCreditAllowed: boolean;
  /** GPU-hours allocated so far (accumulates across allocations). */
  allocatedHours: number;
  allocatedBlockIds: BlockId[];
  /** Energy cost of the allocated blocks (credits of value). */
  energyCost: number;
  outcome: JobOutcome;
  /** Credits of value realised at settlement; null while pending. */
  realisedValue: number | null;
  /** Added by a demand_surge shock. */
  surge: boolean;
  /** Set when a shock touched this job or its lab before settlement (for market_adaptation). */
  shockAffected: boolean;
  /**
   * Credits of this job's value that trades have credited to its owner's deal_quality (a trade that makes
   * the job fundable counts its value as gain). Reconciled at settlement: whatever the job does not
   * realise is taken back from deal_quality (docs/RULES.md §4.3). Undefined until a trade touches it.
   */
  tradeCredit?: number;
  /**
   * Judge bonus held on this job by winning pitches that argued for it (≤ 0.15 over the match), paid into
   * judge_argument × credit when it settles, else forfeited (docs/RULES.md §6.5). Undefined until held.
   */
  heldBonus?: number;
}

/**
 * Offer life: `withdrawn` = cancelled by its sender, `countered` = replaced by a counter_offer, `invalid` = its
 * execution failed on acceptance (docs/RULES.md §3.1–3.4).
 */
export type OfferStatus = 'active' | 'accepted' | 'rejected' | 'withdrawn' | 'countered' | 'expired' | 'invalid';

/** A trade proposal between two seats, executed only when the recipient accepts (docs/RULES.md §3.1–3.2). */
export interface Offer {
  id: OfferId;
  from: LabId;
  to: LabId;
  /** Blocks the sender gives. */
  offeredBlockIds: BlockId[];
  /** Blocks the sender wants from the recipient. */
  requestedBlockIds: BlockId[];
  /** Credits the sender pays the recipient (≥ 0). */
  payment: number;
  /**
   * Credits the sender asks the recipient to pay it (≥ 0; rules v3): selling blocks for credits. At most
   * one of payment and ask is non-zero. Absent in offers of older engines (= 0).
   */
  ask?: number;
  message: string;
  roundCreated: number;
  /** Can be accepted while round ≤ expiresRound. */
  expiresRound: number;
  status: OfferStatus;
  linkedOfferId: OfferId | null;
}

/**
 * Coalition life: `proposed` until every member consented, then `active`; ends `closed` (honoured), `breached`
 * (a member withdrew a committed block) or `lapsed` (never fully consented) (docs/RULES.md §3.9).
 */
export type CoalitionStatus = 'proposed' | 'active' | 'closed' | 'breached' | 'lapsed';

/** One member's stake in a coalition; its first commit_to_coalition is its consent (the proposer's: at creation) (docs/RULES.md §3.9). */
export interface CoalitionCommitment {
  consented: boolean;
  blockIds: BlockId[];
  /** Credits held in escrow by the coalition. */
  escrow: number;
  /** 'breached' once this member withdrew a committed block; 'excused' if a shock failed it. */
  standing: 'good' | 'breached' | 'excused';
}

/** A capacity pool of two or more seats (docs/RULES.md §3.9); rounds 0-based. */
export interface Coalition {
  id: CoalitionId;
  proposer: LabId;
  members: LabId[];
  purpose: string;
  status: CoalitionStatus;
  roundCreated: number;
  /** Closes (honoured) when this round closes; a proposal lapses if not all consent by then. */
  expiresRound: number;
  commitments: Record<LabId, CoalitionCommitment>;
  /** GPU-hours of each member's committed blocks used by other members' jobs. */
  hoursUsedByPartners: Record<LabId, number>;
}

/** A message of the match (round 0-based); pitches and offer notes are recorded here too (`kind`). */
export interface Message {
  round: number;
  from: LabId;
  /** null = public (the channel); otherwise a direct message seen only by sender and recipient. */
  to: LabId | null;
  text: string;
  kind: 'message' | 'pitch' | 'counter_pitch' | 'offer';
}

/** A seat's pitch to the judge this round (make_pitch or counter_pitch; docs/RULES.md §3.5–3.6). */
export interface Pitch {
  round: number;
  lab: LabId;
  text: string;
  /** Job ids the pitch says it argues for (validated as the pitcher's own). */
  jobIds: JobId[];
  /** For a counter_pitch: whose pitch it answers. */
  replyTo: LabId | null;
}

/** A pending job as the judge sees it (docs/RULES.md §6). Hours in GPU-hours, rounds 0-based. */
export interface JobFacts {
  id: JobId;
  requiredHours: number;
  /** requiredHours − allocatedHours (> 0 for a pending job). */
  unmetHours: number;
  deadlineRound: number;
  /** deadlineRound − current round (≥ 0: a pending job settles when its deadline round closes). */
  roundsLeft: number;
  minReliability: number;
  /** Job urgency multiplier (docs/RULES.md §1: U(1.0, 1.8); surge jobs up to 1.9). */
  urgency: number;
}

/**
 * A seat's facts at the moment its pitch was recorded (rules v4, docs/RULES.md §6.1): the judge checks the
 * pitch's claims against these, so what the seat does later in the round (allocating the job it argued
 * for, trading the block it named) cannot turn a true claim false. Private like the seat's jobs: never in
 * an observation or a public view. Lists as in the judge's `SeatFacts` (judge/facts.ts).
 */
export interface PitchFacts {
  /** The round the pitch was made in (0-based). */
  round: number;
  /** The seat's pending jobs with unmet hours then, by deadline then id. */
  pending: JobFacts[];
  /** Offers the seat had sent or received then, any status. */
  offerIds: OfferId[];
  /** Coalitions the seat was a member of then, any status. */
  coalitionIds: CoalitionId[];
  /** Blocks it owned or that appeared in its offers or coalition commitments then. */
  relatedBlockIds: BlockId[];
  /** True GPU-hour values of its capacity then (each related live block, and its own live total). */
  capacityHours: number[];
  /** Reliabilities of its related live blocks then. */
  capacityReliabilities: number[];
}

/** One seat's score from a judge (rule or LLM). Parts are in [0, 1]; score in [0, 1]. */
export interface JudgeSeatScore {
  lab: LabId;
  score: number;
  parts: { need: number; verifiedClaims: number; fabricatedClaims: number; specificity: number };
  reason: string;
}

/** A judge's decision for one round; stored in state and (for LLM judges) in the event log. */
export interface JudgeDecision {
  round: number;
  judgeId: string;
  winner: LabId | null;
  scores: JudgeSeatScore[];
  /**
   * Bonus in [0, 0.15] the winner's pitch earns: held on the jobs it argued for and paid into
   * judge_argument only when they settle, × their credit (docs/RULES.md §6.5).
   */
  bonus: number;
  reason: string;
  /** Free-form details from an LLM judge (model, prompt version, raw scores, fallback note). */
  meta?: Record<string, unknown>;
}

/** The seven market shocks (docs/RULES.md §5). */
export type ShockKind =
  | 'capacity_failure'
  | 'new_supply'
  | 'energy_spike'
  | 'deadline_acceleration'
  | 'reliability_downgrade'
  | 'demand_surge'
  | 'emergency_auction';
/** All shock kinds; the order is part of the seeded schedule draw (world.ts), so changing it changes matches. */
export const SHOCK_KINDS: readonly ShockKind[] = [
  'capacity_failure',
  'new_supply',
  'energy_spike',
  'deadline_acceleration',
  'reliability_downgrade',
  'demand_surge',
  'emergency_auction',
];

/** An entry of the private shock schedule drawn at creation (docs/RULES.md §1, §5). */
export interface ScheduledShock {
  /** Happens when this round closes. */
  round: number;
  kind: ShockKind;
}

/** Public record of a shock that happened (contains no private value). */
export interface ShockEvent {
  round: number;
  kind: ShockKind;
  text: string;
  /** Labs whose capacity, jobs or costs it touched. */
  affectedLabs: LabId[];
  blockIds: BlockId[];
}

/**
 * The original's 11 reward columns (docs/RULES.md §4, §A.1), per seat, for one step or one round close.
 * Score columns are sums of per-event scores (per job, per coalition; usually in [−1, 1], job_utility and
 * deal_quality can be negative); penalties ≤ 0.
 * normalized_reward = clamp(0.35·job + 0.20·deal + 0.15·coalition + judge + 0.10·budget
 *   + 0.10·negotiation + 0.10·adaptation + invalid + spam + breach, −1, 1).
 */
export interface RewardBreakdown {
  job_utility: number;
  deal_quality: number;
  coalition_reliability: number;
  judge_argument: number;
  budget_efficiency: number;
  negotiation_efficiency: number;
  market_adaptation: number;
  invalid_action_penalty: number;
  spam_penalty: number;
  breach_penalty: number;
  normalized_reward: number;
}

/** A seat's public standing: budget and initialBudget in credits (2 dp), reputation in [0, 1]. */
export interface Lab {
  id: LabId;
  /** "Lab A", "Lab B", … by index (lab_0 is "Lab A"). */
  publicName: string;
  budget: number;
  initialBudget: number;
  reputation: number;
  /** Set by `finish`; a finished seat can no longer act and its jobs are settled. */
  finished: boolean;
}

/** Per-seat bookkeeping for rewards and spam control. */
export interface SeatStats {
  cumulativeReward: number;
  /** Sum of the breakdowns of the current round so far (reset at round close). */
  roundReward: RewardBreakdown;
  lastBreakdown: RewardBreakdown;
  actionsThisRound: number;
  /** Fingerprints of the last three actions (action JSON without message). */
  recentFingerprints: string[];
  steps: number;
  invalidActions: number;
  /** Labs this seat holds a grudge against (retaliatory bookkeeping, public behaviour only). */
  grudges: LabId[];
  /**
   * Reward earned outside the seat's own steps during this round (as the other party of a trade, as a
   * coalition member when another seat's finish closes the coalition). Paid in the seat's next
   * round-close breakdown (or in its finish step), then reset.
   */
  pendingReward: RewardBreakdown;
  /**
   * Rules v4: the last round (0-based) each grudge of {@link grudges} holds, in the same order; a grudge
   * lapses when a later round opens (docs/RULES.md §7.1). Undefined under v3, where grudges never lapse.
   */
  grudgeEnds?: number[];
}

/** The capacity an emergency auction sells: a block's facts without an owner yet (docs/RULES.md §5.1). */
export interface AuctionLot {
  id: BlockId;
  gpuCount: number;
  duration: number;
  gpuHours: number;
  reliability: number;
  energyCost: number;
}

/** An emergency auction open during round `round`, sold when that round closes (docs/RULES.md §5.1). */
export interface Auction {
  round: number;
  lot: AuctionLot;
  /** Lowest valid bid (credits). */
  reserve: number;
  /** Sealed bids (credits) by seat, in the order first placed; a seat's later bid replaces its earlier one. */
  bids: Record<LabId, number>;
}

/** Money bookkeeping so conservation can be checked: Σ budgets + Σ escrow = initial + injected − burned. */
export interface Ledger {
  initialMoney: number;
  injected: number;
  burned: number;
}

/** The whole state of a match; `round` is 0-based and equals `params.maxRounds` once the last round closed. */
export interface MatchState {
  version: 1;
  config: MatchConfig;
  params: WorldParams;
  round: number;
  /** True once the last round closed or every seat finished. */
  over: boolean;
  /** Lab ids in seat order. */
  labIds: LabId[];
  labs: Record<LabId, Lab>;
  blocks: Record<BlockId, Block>;
  jobs: Record<JobId, Job>;
  offers: Record<OfferId, Offer>;
  coalitions: Record<CoalitionId, Coalition>;
  nextOfferSeq: number;
  nextCoalitionSeq: number;
  messages: Message[];
  /** Pitches of the current round (latest per seat). */
  pitches: Pitch[];
  judgeHistory: JudgeDecision[];
  /** Private: never shown to any seat. */
  shockSchedule: ScheduledShock[];
  shockHistory: ShockEvent[];
  /**
   * The emergency auction open this round (announced when the previous round closed; docs/RULES.md §5.1),
   * with the seats' sealed bids; null (or absent, older engines) when none. Private: each seat sees only
   * its own bid.
   */
  auction?: Auction | null;
  ledger: Ledger;
  seats: Record<LabId, SeatStats>;
  /**
   * Rules v4: each seat's facts when its latest pitch of this round was recorded (cleared with the
   * pitches at the close). Private: never shown to any seat. Undefined under v3 (JSON omits it).
   */
  pitchFacts?: Record<LabId, PitchFacts>;
}

/** Result of one action: machine-readable code plus a human sentence. */
export interface ActionResult {
  ok: boolean;
  code: string;
  message: string;
  /** The actor's reward for this step. */
  reward: RewardBreakdown;
  /**
   * Every reward the step added, to any seat, with its source ({@link RewardSource}); absent when none.
   * The actor's entries are in `reward`; another seat's are pending, paid at its next round close.
   * Penalties (invalid_action_penalty, spam_penalty) are not entries: `code` says why.
   */
  entries?: RewardEntry[];
  /** Ids created by the action (offer, coalition), for replies and buttons. */
  created?: { offerId?: OfferId; coalitionId?: CoalitionId };
}
