/**
 * A shock in public words, true of the event it narrates (docs/RULES.md §5): who it touched, which blocks and
 * by how much, from the public parts of the engine's {@link ShockEvent} (affected labs, block ids) and the
 * blocks' public facts. Rounds are said 1-based, as every post says them. A deadline acceleration names its
 * lab but never the job or the deadline (both private).
 */
import type { MatchState, ShockEvent } from '../engine/types.js';
import { ENERGY_SPIKE, RELIABILITY_DROP } from '../engine/shocks.js';
import type { HostedMatch } from '../match/types.js';
import { labName } from './common.js';

const list = (xs: readonly string[]): string =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;

/** "b_2_4 (8 GPU-h @0.85)" from the block's public facts, or its id. */
function blockFacts(s: MatchState | null, id: string): string {
  const b = s?.blocks[id];
  return b ? `${id} (${b.gpuHours} GPU-h @${b.reliability.toFixed(2)})` : id;
}

/** The sentence for shock `x` of a round close (`m`: the match after the close). */
export function shockSentence(m: HostedMatch, x: ShockEvent): string {
  const s = m.state;
  const labs = x.affectedLabs.map((l) => labName(m, l));
  switch (x.kind) {
    case 'capacity_failure':
      return x.blockIds.length
        ? `capacity failure: ${list(x.blockIds)} of ${list(labs)} failed and can no longer run jobs`
        : `capacity failure: ${x.text.replace(/^A capacity failure hit nothing: /, 'it hit nothing: ')}`;
    case 'new_supply':
      return x.blockIds.length
        ? `new supply: ${list(x.blockIds.map((id) => blockFacts(s, id)))} went to ${list(labs)}`
        : 'new supply: new capacity appeared but nobody could take it';
    case 'energy_spike':
      return `energy spike: energy costs of every live block rose by ${Math.round((ENERGY_SPIKE - 1) * 100)}%${labs.length ? ` (blocks of ${list(labs)})` : ''}`;
    case 'reliability_downgrade':
      return `reliability downgrade: every live block lost ${RELIABILITY_DROP.toFixed(2)} reliability${labs.length ? ` (blocks of ${list(labs)})` : ''}`;
    case 'deadline_acceleration':
      return labs.length
        ? `deadline acceleration: a deadline of ${list(labs)} moved one round earlier`
        : 'deadline acceleration: it touched nobody (no deadline could move)';
    case 'demand_surge': {
      // Surge jobs are due at most two rounds after the shock's round (shocks.ts), as their ids say.
      const due = s ? Math.min(s.params.maxRounds - 1, x.round + 2) + 1 : null;
      return `demand surge: ${list(labs)} each got an urgent job (partial credit)${due !== null ? `, due by the end of round ${due}` : ''}`;
    }
    case 'emergency_auction':
      // The engine's text names only the winner and its price (docs/RULES.md §5.1), never a losing bid.
      return `emergency auction: ${x.text}`;
  }
}
