/** Inputs of lobby and seat commands: seat names, seat drivers, raw actions, default seat policies. */
import { POLICY_NAMES } from '../engine/config.js';
import { ARCHETYPES } from '../engine/policies/index.js';
import type { ArchetypeName, LabId, Seed } from '../engine/types.js';
import { toJson, type AgentFactory } from '../agents/seat.js';
import { labName } from './names.js';
import { playerText } from '../chat/player-text.js';
import { seatOfUser } from './replay.js';
import { fail, ok, type HostResult } from './results.js';
import type { HostedMatch, SeatDriver } from './types.js';

/** Longest action (as JSON text) stored in the log; the engine's longest valid action is far shorter. */
export const MAX_ACTION_JSON = 16_000;

/** The JSON form of a raw action as logged; an oversized one becomes text the engine rejects as malformed. */
export function boundedAction(action: unknown): unknown {
  const raw = toJson(action);
  return JSON.stringify(raw).length > MAX_ACTION_JSON ? 'oversized action' : raw;
}

/** A seat named by lab id ("lab_1"), public name ("Lab B") or letter ("B"); null if none matches. */
export function resolveLab(m: HostedMatch, labs: readonly LabId[], input: string): LabId | null {
  const q = input
    .trim()
    .toLowerCase()
    .replace(/^lab\s*/, 'lab ');
  return (
    labs.find(
      (l) => l === input.trim() || labName(m, l).toLowerCase() === q || labName(m, l).slice(-1).toLowerCase() === q,
    ) ?? null
  );
}

/**
 * The archetype of seat `i` when nobody claimed it: ARCHETYPES rotated by the seed (as the gym's
 * opponents, RULES §8), so a seat's position does not give its strategy away.
 */
export function archetypeAt(i: number, seed: Seed): ArchetypeName {
  // A match secret rotates by its first 32 bits: the archetypes stay as secret as the seed.
  const n = typeof seed === 'number' ? seed : Number.parseInt(seed.slice(0, 8), 16);
  return ARCHETYPES[(n + i) % ARCHETYPES.length] ?? 'cooperative';
}

/**
 * A driver `assign` may give a seat: a known scripted policy, or an LLM model that `agentFor` can play.
 * Error: `invalid_driver` (people claim seats with `join`).
 */
export function checkDriver(
  driver: SeatDriver,
  agentFor: AgentFactory | undefined,
): HostResult<Exclude<SeatDriver, { kind: 'human' }>> {
  if (driver.kind === 'human') return fail('invalid_driver', 'People claim seats themselves with `join`.');
  if (driver.kind === 'scripted') {
    if (!(POLICY_NAMES as readonly string[]).includes(driver.policy))
      return fail('invalid_driver', `Unknown policy "${driver.policy}".`, {
        option: 'policy',
        validValues: [...POLICY_NAMES],
      });
    return ok({ kind: 'scripted', policy: driver.policy });
  }
  if (!agentFor?.(driver))
    return fail('invalid_driver', `No LLM agent is available for model ${playerText(driver.model)}.`, {
      option: 'model',
    });
  return ok({ kind: 'llm', model: driver.model });
}

/**
 * An LLM driver's model: the default (`defaultModel`) when it names none, then checked against `allowed`
 * (unset = no list). Other drivers pass unchanged. Errors: `invalid_driver` (no model and no default),
 * `model_not_allowed` (listing the allowed models).
 */
export function withModel(
  driver: SeatDriver,
  defaultModel: string | null | undefined,
  allowed: readonly string[] | undefined,
): HostResult<SeatDriver> {
  if (driver.kind !== 'llm') return ok(driver);
  const model = driver.model.trim() ? driver.model : defaultModel;
  if (!model)
    return fail(
      'invalid_driver',
      'Name a model (`model:`): no default agent model is configured (ARENA_AGENT_MODEL).',
      { option: 'model' },
    );
  if (allowed && !allowed.includes(model)) {
    // Model names are untrusted text (shown as written, never as markup): listed in the message as one player
    // span, not as `validValues` (a reply prints those as they are).
    const list = allowed.length ? playerText(allowed.join(', ')) : 'none (no LLM model is configured)';
    return fail('model_not_allowed', `Model ${playerText(model)} is not allowed here. Allowed models: ${list}.`, {
      option: 'model',
    });
  }
  return ok({ kind: 'llm', model });
}

/** `round_closed` when a command written for `round` (0-based) arrives after that round closed; null otherwise. */
export function roundClosed(m: HostedMatch, round: number | undefined): HostResult<never> | null {
  if (round === undefined || !m.state || m.state.round === round) return null;
  return fail(
    'round_closed',
    `Round ${round + 1} closed before your command arrived, so nothing was recorded (it was not moved to round ${m.state.round + 1}). Send it again if you still want it.`,
  );
}

/**
 * null when `matchId` (the match a command was written for) is unset or is `m`; else `match_changed`: the
 * channel's match changed while the command was on its way, so it must not act on the new one.
 */
export function matchChanged(m: HostedMatch, matchId: string | undefined): HostResult<never> | null {
  if (matchId === undefined || m.id === matchId) return null;
  return fail('match_changed', 'The match this command was for ended before it arrived, so nothing was recorded.');
}

/**
 * A seat's input (an action, `done`) while the round's pitches are with the judge (`m.judging`): refused
 * with `round_closed`, since the round's close is under way and the judged state must be the one that
 * closes; null otherwise.
 */
export function roundJudging(m: HostedMatch): HostResult<never> | null {
  if (!m.judging) return null;
  const r = m.judging.round;
  const last = m.state !== null && r + 1 >= m.state.params.maxRounds;
  const next = last
    ? 'This was the last round: the match ends as soon as the judge has decided.'
    : `Round ${r + 2} opens as soon as the judge has decided: send it again then.`;
  return fail(
    'round_closed',
    `Round ${r + 1} is closed and its pitches are with the judge, so nothing was recorded. ${next}`,
  );
}

/** null while `m` is in its lobby; else match_over / not_in_lobby. */
export function lobbyCheck(m: HostedMatch): HostResult<never> | null {
  if (m.phase === 'over') return fail('match_over', 'The match is over.');
  if (m.phase !== 'lobby') return fail('not_in_lobby', 'The match has already started.');
  return null;
}

/** The caller's seat in a running match, or not_running / match_over / not_your_seat. */
export function runningSeat(m: HostedMatch, caller: { userId: string }): HostResult<LabId> {
  if (m.phase === 'lobby') return fail('not_running', 'The match has not started yet.');
  if (m.phase === 'over') return fail('match_over', 'The match is over.');
  const lab = seatOfUser(m, caller.userId);
  return lab ? ok(lab) : fail('not_your_seat', 'You hold no seat in this match.');
}
