/**
 * Grudges (docs/RULES.md §7.1): which offers a seat resents and for how long. Every seat's grudges are
 * recorded by the engine; only the retaliatory archetype acts on them (it refuses that lab's offers and
 * coalitions while a grudge holds).
 *
 * Rules v4 defines both parts on what the offerer can see: an offer is **exploitative** for its recipient
 * when, at the public reference price of {@link REFERENCE_PRICE} credits per reliability-weighted GPU-hour,
 * it gives the recipient less than half of what it takes from it, and at least {@link EXPLOITATIVE_GAP}
 * credits less; a grudge holds for {@link GRUDGE_ROUNDS} rounds (the round it starts in and the next), then
 * lapses. Under v3 the test was the recipient's private valuation (a loss of more than 5 credits) and a
 * grudge never lapsed. Pure.
 */
import type { Draft } from './mut.js';
import type { LabId, MatchState } from './types.js';
import { rulesOf } from './config.js';
import { round2 } from './util.js';

/** Public reference price: credits per reliability-weighted GPU-hour (a 4 GPU-h block at 0.90 is worth 18). */
export const REFERENCE_PRICE = 5;
/** Smallest shortfall (credits, at the reference price) that can make an offer exploitative. */
export const EXPLOITATIVE_GAP = 10;
/** Rounds a grudge holds under rules v4: the round it starts in and the next. */
export const GRUDGE_ROUNDS = 2;

/** Reference worth (credits) of blocks: Σ GPU-hours × reliability × {@link REFERENCE_PRICE}, 2 dp. */
export function referenceWorth(blocks: readonly { gpuHours: number; reliability: number }[]): number {
  let w = 0;
  for (let i = 0; i < blocks.length; i++) w += blocks[i]!.gpuHours * blocks[i]!.reliability;
  return round2(w * REFERENCE_PRICE);
}

/** An offer's two sides as its recipient sees them, at the reference price (credits). */
export interface OfferWorth {
  /** What the recipient would give: the blocks asked of it plus the credits it would pay (`ask`). */
  gives: number;
  /** What it would get: the blocks offered plus the credits paid to it (`payment`). */
  gets: number;
}

/** {@link OfferWorth} of an offer whose block facts are public. */
export function offerWorth(
  requested: readonly { gpuHours: number; reliability: number }[],
  offered: readonly { gpuHours: number; reliability: number }[],
  payment: number,
  ask: number,
): OfferWorth {
  return { gives: round2(referenceWorth(requested) + ask), gets: round2(referenceWorth(offered) + payment) };
}

/** Rules v4: whether an offer of this worth is exploitative for its recipient (see the module comment). */
export const isExploitative = (w: OfferWorth): boolean => w.gets < w.gives / 2 && w.gives - w.gets >= EXPLOITATIVE_GAP;

/**
 * `holder` now holds a grudge against `against`: added if new; under v4 it holds until the end of the
 * round after this one (an existing grudge is extended to that).
 */
export function addGrudge(d: Draft, holder: LabId, against: LabId): void {
  const seat = d.s.seats[holder]!;
  const at = seat.grudges.indexOf(against);
  if (rulesOf(d.s) < 4 || seat.grudgeEnds === undefined) {
    if (at < 0) d.seat(holder).grudges = [...seat.grudges, against];
    return;
  }
  const end = d.s.round + GRUDGE_ROUNDS - 1;
  const w = d.seat(holder);
  if (at < 0) {
    w.grudges = [...seat.grudges, against];
    w.grudgeEnds = [...seat.grudgeEnds, end];
  } else {
    const ends = seat.grudgeEnds.slice();
    ends[at] = Math.max(ends[at] ?? end, end);
    w.grudgeEnds = ends;
  }
}

/** The last round `holder`'s grudge against `against` holds (v4), or null when it holds none or it never lapses (v3). */
export function grudgeEnd(s: MatchState, holder: LabId, against: LabId): number | null {
  const seat = s.seats[holder];
  if (seat === undefined || seat.grudgeEnds === undefined) return null;
  const at = seat.grudges.indexOf(against);
  return at < 0 ? null : (seat.grudgeEnds[at] ?? null);
}

/** At a round close, once `d.s.round` is the round that opens: drop the v4 grudges that have lapsed. */
export function lapseGrudges(d: Draft): void {
  const s = d.s;
  if (rulesOf(s) < 4) return;
  const labIds = s.labIds;
  for (let i = 0; i < labIds.length; i++) {
    const seat = s.seats[labIds[i]!]!;
    const ends = seat.grudgeEnds;
    if (ends === undefined || ends.length === 0) continue;
    let keep = 0;
    for (let k = 0; k < ends.length; k++) if (ends[k]! >= s.round) keep++;
    if (keep === ends.length) continue;
    const w = d.seat(labIds[i]!);
    w.grudges = seat.grudges.filter((_, k) => ends[k]! >= s.round);
    w.grudgeEnds = ends.filter((e) => e >= s.round);
  }
}
