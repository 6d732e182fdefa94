/** Lobby settings of a match (`new`): validation and defaults. */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { TASK_NAMES } from '../engine/types.js';
import type { MatchSettings } from './types.js';
import { fail, ok, type HostResult } from './results.js';
import { SECRET_SEED } from '../engine/config.js';

/** Longest round timer accepted: one day (keeps timers far below Node's 2^31 ms setTimeout limit). */
export const MAX_ROUND_SECONDS = 86_400;

/** Defaults for settings `new` does not give: a medium market, a 5-minute round timer, training params. */
export const DEFAULT_SETTINGS: Omit<MatchSettings, 'seed'> = {
  task: 'market_round',
  roundSeconds: 300,
  holdout: false,
};

/**
 * A fresh match secret: 128 random bits as 32 hex digits (the engine's `Seed`). Nothing public during the
 * match narrows it down (trying every integer seed against the public blocks finds nothing), and it is
 * published in the final post so anyone can replay the match (docs/RULES.md §0, SECURITY.md).
 */
export const matchSecret = (): string => randomBytes(16).toString('hex');

const SettingsSchema = z.object({
  task: z.enum(['single_trade', 'market_round', 'coalition_market']),
  seed: z.union([
    z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
    z.string().regex(SECRET_SEED, '32 lowercase hex digits'),
  ]),
  hostSeeded: z.boolean(),
  roundSeconds: z.number().int().min(0).max(MAX_ROUND_SECONDS),
  holdout: z.boolean(),
  /** Ballots on pitches; left out = off. */
  votes: z.boolean().optional(),
});

/**
 * Merge `given` over `defaults` over {@link DEFAULT_SETTINGS} and validate. Without a seed the match gets a
 * fresh {@link matchSecret}; a seed the host gives (an integer, or a published secret to replay a match)
 * marks the match `hostSeeded`. Error: `invalid_settings` naming the option.
 */
export function resolveSettings(
  given: Partial<MatchSettings>,
  defaults: Partial<MatchSettings> = {},
): HostResult<MatchSettings> {
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const chosen = given.seed !== undefined;
  const merged = {
    ...DEFAULT_SETTINGS,
    ...defaults,
    ...defined,
    seed: chosen ? given.seed : matchSecret(),
    hostSeeded: chosen,
  };
  const parsed = SettingsSchema.safeParse(merged);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const option = String(issue?.path[0] ?? 'settings');
  const expected: Record<string, string> = {
    task: 'one of the task names',
    seed: 'an integer from 0 to 2147483647, or a published match secret (32 hex digits)',
    roundSeconds: `an integer number of seconds from 0 (no timer) to ${MAX_ROUND_SECONDS}`,
    holdout: 'true or false',
    votes: 'on or off',
  };
  return fail('invalid_settings', `Invalid ${option}: ${issue?.message ?? 'bad value'}.`, {
    option,
    expected: expected[option] ?? 'valid settings',
    ...(option === 'task' ? { validValues: [...TASK_NAMES] } : {}),
  });
}
