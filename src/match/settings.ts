/** Lobby settings of a match (`new`): validation and defaults. */
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { TASK_NAMES } from '../engine/types.js';
import type { MatchSettings } from './types.js';
import { fail, ok, type HostResult } from './results.js';

/** Longest round timer accepted: one day (keeps timers far below Node's 2^31 ms setTimeout limit). */
export const MAX_ROUND_SECONDS = 86_400;

/** Defaults for settings `new` does not give: a medium market, a 5-minute round timer, training params. */
export const DEFAULT_SETTINGS: Omit<MatchSettings, 'seed'> = { task: 'market_round', roundSeconds: 300, holdout: false };

const SettingsSchema = z.object({
  task: z.enum(['single_trade', 'market_round', 'coalition_market']),
  seed: z.number().int().min(0).max(2 ** 31 - 1),
  roundSeconds: z.number().int().min(0).max(MAX_ROUND_SECONDS),
  holdout: z.boolean(),
  /** Ballots on pitches (issue #10); left out = off. */
  votes: z.boolean().optional(),
});

/**
 * Merge `given` over `defaults` over {@link DEFAULT_SETTINGS} (seed: a random draw, recorded in the log)
 * and validate. Error: `invalid_settings` naming the option.
 */
export function resolveSettings(given: Partial<MatchSettings>, defaults: Partial<MatchSettings> = {}): HostResult<MatchSettings> {
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const merged = { ...DEFAULT_SETTINGS, seed: randomInt(0, 1_000_000), ...defaults, ...defined };
  const parsed = SettingsSchema.safeParse(merged);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  const option = String(issue?.path[0] ?? 'settings');
  const expected: Record<string, string> = {
    task: 'one of the task names',
    seed: 'an integer from 0 to 2147483647',
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
