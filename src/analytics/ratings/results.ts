/**
 * A finished match's log → its free-for-all result (pure: folds the events with src/match/replay.ts).
 * Every seat ranks by its final cumulative reward (a seat that finished early keeps the reward it had).
 * Matches that do not count (see {@link ExclusionReason}): cancelled in the lobby, still running, ended by
 * the host before the last round (`match_ended`), or a person left (`finish`) before round 1 closed.
 */
import { applyEvent } from '../../match/replay.js';
import type { HostedMatch, SeatDriver, StoredEvent } from '../../match/types.js';
import type { ExclusionReason, MatchResult, PlayerRef, SeatResult } from './types.js';

/** The rated player of a seat driver (see {@link PlayerRef} for the id scheme). */
export function playerOf(d: SeatDriver): PlayerRef {
  if (d.kind === 'human') return { id: `person:${d.userId}`, kind: 'person', name: d.displayName };
  if (d.kind === 'llm') return { id: `llm:${d.model}`, kind: 'llm', name: d.model };
  return { id: `scripted:${d.policy}`, kind: 'scripted', name: d.policy };
}

/** Competition ranks ("1224"): equal rewards (within 1e-9) share the better rank. */
export function rankSeats<T extends { reward: number }>(seats: readonly T[]): (T & { rank: number })[] {
  const sorted = [...seats].sort((a, b) => b.reward - a.reward);
  return seats.map((s) => ({ ...s, rank: 1 + sorted.filter((o) => o.reward > s.reward + 1e-9).length }));
}

/** The result of a match from the match as folded (`m`) and whether it was cut short. */
export function resultOf(
  m: HostedMatch | null,
  cut: ExclusionReason | null,
  endedAt: string,
): MatchResult | { excluded: ExclusionReason } {
  if (!m?.state) return { excluded: 'not_started' };
  if (cut) return { excluded: cut };
  if (m.phase !== 'over' || !m.state.over) return { excluded: 'not_over' };
  const s = m.state;
  const seats: Omit<SeatResult, 'rank'>[] = [];
  for (const lab of s.labIds) {
    const d = m.drivers[lab];
    if (!d) continue;
    seats.push({ lab, player: playerOf(d), reward: s.seats[lab]?.cumulativeReward ?? 0 });
  }
  const at = m.endedAt != null ? new Date(m.endedAt).toISOString() : endedAt;
  return {
    matchId: m.id,
    task: m.settings.task,
    platform: m.platform,
    endedAt: at,
    seats: rankSeats(seats),
    hostSeeded: m.settings.hostSeeded === true,
  };
}

/**
 * Fold a match's whole log (ordered by seq) and return its result, or why it does not count.
 * Throws the replay's `ReplayError` for a log that cannot be folded.
 */
export function matchResult(events: readonly StoredEvent[]): MatchResult | { excluded: ExclusionReason } {
  let m: HostedMatch | null = null;
  let cut: ExclusionReason | null = null;
  for (const ev of events) {
    const before: HostedMatch | null = m;
    m = applyEvent(m, ev).match;
    const body = ev.body;
    if (body.type === 'match_ended' && before?.phase === 'running') cut ??= 'ended_by_host';
    if (
      body.type === 'action' &&
      before?.state &&
      before.state.round === 0 &&
      before.drivers[body.lab]?.kind === 'human'
    ) {
      // A person who finished before round 1 closed left the match: its result says nothing about skill.
      if (!before.state.labs[body.lab]?.finished && m.state?.labs[body.lab]?.finished) cut ??= 'person_left_early';
    }
  }
  return resultOf(m, cut, events.at(-1)?.at ?? '');
}

/** Type guard: a counted result (not an exclusion). */
export const isCounted = (r: MatchResult | { excluded: ExclusionReason }): r is MatchResult => !('excluded' in r);
