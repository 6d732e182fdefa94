/** Small formatting helpers shared by the round host's renderers. */
import { REWARD_COLUMNS as ENGINE_REWARD_COLUMNS } from '../engine/reward.js';
import type { LabId, RewardBreakdown } from '../engine/types.js';
import type { Post } from '../chat/types.js';
import type { HostedMatch } from '../match/types.js';

/** Name of the field that carries a round's deadline as an ISO 8601 timestamp (adapters may render it
 * as a relative time, e.g. Discord `<t:unix:R>`). */
export const DEADLINE_FIELD = 'Deadline';

export { labName } from '../match/names.js';
import { labName } from '../match/names.js';
import { personName, playerText } from '../chat/player-text.js';

/**
 * "Lab A (👤 Ada)", "Lab B (scripted)", "Lab C (🤖 LLM: gpt-x)", "Lab D (open)". A scripted seat's policy is
 * its hidden strategy (the original arena hid archetypes too): named only once the match is over. A person's
 * name is player text after 👤 (src/chat/player-text.ts), so a nickname cannot pass for an agent label; a
 * model's name is untrusted text too (whoever configured or typed it), so `**x**` or `<@everyone>` in it is
 * shown as written on every surface, never as markup or a mention.
 */
export function seatLabel(m: HostedMatch, lab: LabId): string {
  const d = m.drivers[lab];
  const scripted = (policy: string) => (m.phase === 'over' ? `scripted: ${policy}` : 'scripted');
  const who = !d
    ? 'open'
    : d.kind === 'human'
      ? personName(d.displayName)
      : d.kind === 'scripted'
        ? scripted(d.policy)
        : `🤖 LLM: ${playerText(d.model)}`;
  return `${labName(m, lab)} (${who})`;
}

/** 1-based "2/5" for engine round 1 of 5. */
export const roundLabel = (round: number, maxRounds: number) => `${round + 1}/${maxRounds}`;

/** Signed reward with 3 decimals, e.g. "+0.125". */
export const fmtReward = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(3)}`;

/** The 11 reward columns in the original's order (docs/RULES.md §4, §A.1): the 10 parts, then normalized_reward. */
export const REWARD_COLUMNS: readonly (keyof RewardBreakdown)[] = [...ENGINE_REWARD_COLUMNS, 'normalized_reward'];

/** A round's deadline as a field (or a no-timer note). */
export function deadlineFields(m: HostedMatch): NonNullable<Post['fields']> {
  return m.roundDeadline === null ? [] : [{ name: DEADLINE_FIELD, value: new Date(m.roundDeadline).toISOString() }];
}

/** Leaderboard lines, best first: "1. Lab B (Ada) +0.412". */
export function leaderboardText(m: HostedMatch, rows: readonly { lab: LabId; cumulativeReward: number }[]): string {
  return [...rows]
    .sort((a, b) => b.cumulativeReward - a.cumulativeReward || (a.lab < b.lab ? -1 : 1))
    .map((r, i) => `${i + 1}. ${seatLabel(m, r.lab)} ${fmtReward(r.cumulativeReward)}`)
    .join('\n');
}

/** Current leaderboard rows from the engine state (empty in the lobby). */
export function currentStandings(m: HostedMatch): { lab: LabId; cumulativeReward: number }[] {
  const s = m.state;
  if (!s) return [];
  return s.labIds.map((lab) => ({ lab, cumulativeReward: s.seats[lab]?.cumulativeReward ?? 0 }));
}

/** Trim a list of lines to a field value (platforms cap field sizes; 1000 characters keeps every one happy). */
export function fieldValue(lines: readonly string[], empty = '—', max = 1000): string {
  if (lines.length === 0) return empty;
  let out = '';
  for (const [i, line] of lines.entries()) {
    const next = out ? `${out}\n${line}` : line;
    if (next.length > max) return `${out}\n… and ${lines.length - i} more`;
    out = next;
  }
  return out;
}
