/**
 * What a seat's observation shows of the coalitions (docs/RULES.md §0): the coalitions it is a member
 * of, with the other members' escrow hidden, which of the others it sees only publicly, and its own
 * escrow. All of it derives from the coalitions record and the seat alone, so it is worked out once per
 * version of that record and seat and shared, read-only, between that seat's observations: the record
 * changes a few times a match, while every seat observes every round.
 *
 * The cache holds the last version seen (one entry per seat of it). It never changes a result: a miss
 * computes the same view. Observations copy `mine` into a fresh array.
 */
import type { Coalition, LabId, MatchState } from './types.js';
import { seatOf } from './public.js';

/** One seat's view of one version of the coalitions record. */
export interface SeatCoalitions {
  /** The seat's coalitions, in record order, as {@link memberView} shows them. */
  readonly mine: readonly Coalition[];
  /** Record positions of the coalitions it is not in (shown as their public facts, public.ts publicCoalitions). */
  readonly others: readonly number[];
  /** Its escrow over all coalitions, summed in record order (query.ts escrowOf: same order, same sum). */
  readonly escrow: number;
}

/** A member's view of its coalition: other members' escrow is not shown (0). Shared when nothing to hide. */
function memberView(c: Coalition, lab: LabId): Coalition {
  const members = c.members;
  let hidden = false;
  // Indexed loops: member lists may be frozen (for…of is slow there).
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    if (m !== lab && (c.commitments[m]?.escrow ?? 0) !== 0) hidden = true;
  }
  if (!hidden) return c;
  const commitments: Coalition['commitments'] = {};
  for (let i = 0; i < members.length; i++) {
    const m = members[i]!;
    const cm = c.commitments[m]!;
    commitments[m] =
      m === lab ? cm : { consented: cm.consented, blockIds: cm.blockIds, escrow: 0, standing: cm.standing };
  }
  return { ...c, commitments };
}

function viewOf(s: MatchState, lab: LabId): SeatCoalitions {
  const mine: Coalition[] = [];
  const others: number[] = [];
  let escrow = 0;
  let i = 0;
  const records = s.coalitions;
  for (const id in records) {
    const c = records[id]!;
    const cm = c.commitments[lab];
    escrow += cm?.escrow ?? 0;
    if (cm !== undefined) mine.push(memberView(c, lab));
    else others.push(i);
    i += 1;
  }
  return { mine, others, escrow };
}

let last: { rec: object; labIds: readonly LabId[]; views: (SeatCoalitions | undefined)[] } | null = null;

/** `lab`'s view of `s.coalitions` (shared: read-only). */
export function seatCoalitions(s: MatchState, lab: LabId): SeatCoalitions {
  const k = seatOf(s.labIds, lab);
  if (k < 0) return viewOf(s, lab);
  let hit = last;
  if (hit === null || hit.rec !== s.coalitions || hit.labIds !== s.labIds)
    last = hit = { rec: s.coalitions, labIds: s.labIds, views: [] };
  return (hit.views[k] ??= viewOf(s, lab));
}
