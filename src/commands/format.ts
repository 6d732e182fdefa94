/**
 * One-line renderings of engine records for replies. Rounds are shown 1-based ("round 2/5"), as the round
 * host's posts do (src/present/common.ts); ids are shown as they are typed in commands.
 */
import type { Block, Coalition, Job, Offer } from '../engine/types.js';
import type { PublicBlock, PublicCoalition } from '../engine/views.js';
import { labName } from '../present/common.js';
import type { HostedMatch } from '../match/types.js';
import { playerText } from '../chat/player-text.js';

/** "b_0_1, b_0_2" or "nothing". */
export const idList = (ids: readonly string[], none = 'nothing'): string => (ids.length ? ids.join(', ') : none);

/** "b_0_1 4×2 = 8 GPU-h, rel 0.91, energy 3.20, available". */
export function blockLine(b: Block | PublicBlock): string {
  return `\`${b.id}\` ${b.gpuCount}×${b.duration} = ${b.gpuHours} GPU-h, rel ${b.reliability.toFixed(2)}, energy ${b.energyCost.toFixed(2)}, ${b.status}`;
}

/** Private job line: hours, deadline (1-based round, settles when it closes), reliability, value. */
export function jobLine(j: Job): string {
  const value = (j.baseValue * j.urgencyMultiplier).toFixed(1);
  // Blocks are used whole: a bigger block covers the job, and "12/2 GPU-h" would read like a typo.
  const hours =
    j.allocatedHours > j.gpuHoursRequired
      ? `complete (${j.allocatedHours} GPU-h on it)`
      : `${j.allocatedHours}/${j.gpuHoursRequired} GPU-h allocated`;
  const state = j.outcome === 'pending' ? hours : `${j.outcome} (${(j.realisedValue ?? 0).toFixed(2)})`;
  const extra = [j.partialCreditAllowed ? 'partial credit' : 'all or nothing', j.surge ? 'surge' : '']
    .filter(Boolean)
    .join(', ');
  return `\`${j.id}\` needs ${j.gpuHoursRequired} GPU-h by the end of round ${j.deadlineRound + 1}, min rel ${j.minReliability.toFixed(2)}, worth ≈${value}; ${state}; ${extra}`;
}

/** "o_3 Lab B → Lab A: gives b_1_0, wants b_0_1, pays 5.00 (or: asks 12.00 credits), open until round 3 — note". */
export function offerLine(m: HostedMatch, o: Offer): string {
  const note = o.message ? ` — note: ${playerText(o.message)}` : '';
  return `\`${o.id}\` ${labName(m, o.from)} → ${labName(m, o.to)}: gives ${idList(o.offeredBlockIds)}, wants ${idList(o.requestedBlockIds)}, ${(o.ask ?? 0) > 0 ? `asks ${(o.ask ?? 0).toFixed(2)} credits` : `pays ${o.payment.toFixed(2)}`}; open until round ${o.expiresRound + 1}${note}`;
}

/** Public coalition line (members, consent, committed blocks; never escrow). */
export function coalitionLine(m: HostedMatch, c: PublicCoalition | Coalition): string {
  const consented =
    'consented' in c
      ? c.consented
      : Object.entries(c.commitments)
          .filter(([, x]) => x.consented)
          .map(([l]) => l);
  const committed =
    'committedBlockIds' in c ? c.committedBlockIds : Object.values(c.commitments).flatMap((x) => x.blockIds);
  const purpose = c.purpose ? ` — purpose: ${playerText(c.purpose)}` : '';
  return `\`${c.id}\` ${c.status}: ${c.members.map((l) => labName(m, l)).join(', ')}; consented ${consented.length}/${c.members.length}; committed ${idList(committed, 'no blocks')}; until round ${c.expiresRound + 1}${purpose}`;
}

export { fieldValue } from '../present/common.js';
