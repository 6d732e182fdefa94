/**
 * Whether a seat has anything left to decide this round (issue #19 "no idle typing"): a pending job it can
 * still complete and has not fully allocated, an active offer addressed to it, a recent coalition proposal
 * awaiting its consent, or an open emergency auction it has not bid in. A person whose seat has none is
 * marked done automatically (src/host/rounds.ts) and may still act.
 *
 * A proposal counts in the round it was made and the next (one made at a round's close is first seen in
 * the next round), never longer: there is no action to decline one, so a person not joining would
 * otherwise type `done` every round until it lapses (up to the end of the match). They can still consent
 * later.
 */
import type { LabId, MatchState } from '../engine/types.js';
import { doomedJobs } from './doomed.js';

/** What `lab` could still decide this round (empty: nothing), as short public-safe reasons. */
export function openDecisions(s: MatchState, lab: LabId): string[] {
  if (s.over || s.labs[lab]?.finished) return [];
  const out: string[] = [];
  const doomed = new Set(doomedJobs(s).map((x) => x.jobId));
  for (const j of Object.values(s.jobs)) {
    if (j.owner === lab && j.outcome === 'pending' && j.allocatedHours < j.gpuHoursRequired && !doomed.has(j.id)) out.push(`job ${j.id}`);
  }
  for (const o of Object.values(s.offers)) if (o.status === 'active' && o.to === lab && o.expiresRound >= s.round) out.push(`offer ${o.id}`);
  for (const c of Object.values(s.coalitions)) {
    if (c.status === 'proposed' && s.round <= c.roundCreated + 1 && c.members.includes(lab) && !c.commitments[lab]?.consented) out.push(`coalition ${c.id}`);
  }
  const a = s.auction;
  if (a && a.round === s.round && !Object.hasOwn(a.bids, lab)) out.push('the emergency auction');
  return out;
}
