/**
 * What a seat could still decide this round (docs/RULES.md §2, "auto-done"): a pending job that can still
 * earn from more GPU-hours and is not fully allocated, an active offer addressed to it, a recent coalition
 * proposal awaiting its consent, an open emergency auction it has not bid in, or a spare block it could
 * sell (a live block none of its open jobs can use, while another lab still plays). A person whose seat has
 * none is marked done automatically (src/host/rounds.ts), is told so, and may take it back.
 *
 * A proposal counts in the round it was made and the next (one made at a round's close is first seen in
 * the next round), never longer: there is no action to decline one, so a person not joining would
 * otherwise type `done` every round until it lapses (up to the end of the match). They can still consent
 * later.
 */
import type { Job, LabId, MatchState } from '../engine/types.js';
import { doomedJobs } from './doomed.js';

/** What `lab` could still decide this round (empty: nothing), as short reasons naming its own ids. */
export function openDecisions(s: MatchState, lab: LabId): string[] {
  if (s.over || s.labs[lab]?.finished) return [];
  const out: string[] = [];
  const lost = new Set(
    doomedJobs(s)
      .filter((x) => x.lost)
      .map((x) => x.jobId),
  );
  const open: Job[] = [];
  for (const j of Object.values(s.jobs)) {
    if (j.owner === lab && j.outcome === 'pending' && j.allocatedHours < j.gpuHoursRequired && !lost.has(j.id)) {
      out.push(`job ${j.id}`);
      open.push(j);
    }
  }
  for (const o of Object.values(s.offers))
    if (o.status === 'active' && o.to === lab && o.expiresRound >= s.round) out.push(`offer ${o.id}`);
  for (const c of Object.values(s.coalitions)) {
    if (
      c.status === 'proposed' &&
      s.round <= c.roundCreated + 1 &&
      c.members.includes(lab) &&
      !c.commitments[lab]?.consented
    )
      out.push(`coalition ${c.id}`);
  }
  const a = s.auction;
  if (a && a.round === s.round && !Object.hasOwn(a.bids, lab)) out.push('the emergency auction');
  // A block another lab could buy: it is a decision to sell it (or keep it) while someone can buy.
  if (s.labIds.some((l) => l !== lab && !s.labs[l]!.finished)) {
    for (const b of Object.values(s.blocks)) {
      if (b.owner !== lab || (b.status !== 'available' && b.status !== 'reserved')) continue;
      if (!open.some((j) => b.reliability >= j.minReliability)) out.push(`spare block ${b.id}`);
    }
  }
  return out;
}
