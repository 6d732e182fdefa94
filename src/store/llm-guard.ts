/**
 * What LLM seats' self-protection did (table `llm_guard`, migration 0006): private figures redacted from
 * their text and actions refused because they gave value away (src/agents/redact.ts, guard.ts). One row per
 * (UTC day, channel, match, model) of running sums, each write ONE upsert that adds to them, as
 * `llm_usage` (llm-usage.ts), so several processes on one database never lose an increment.
 */
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { Count, count, DAY } from './llm-usage.js';
import type { Database } from './schema.js';
import { StoreError, type LlmGuardDelta, type LlmGuardRecord } from './types.js';

const GuardRow = z.object({
  day: z.string().regex(DAY),
  channel_id: z.string(),
  match_id: z.string(),
  model: z.string(),
  redactions: Count,
  refusals: Count,
});

/** Add one turn's counts to its row, atomically; see EventStore.addLlmGuard. */
export async function addLlmGuard(db: Kysely<Database>, g: LlmGuardDelta): Promise<void> {
  if (!DAY.test(g.day)) throw new TypeError(`addLlmGuard: day must be YYYY-MM-DD, got ${JSON.stringify(g.day)}`);
  if (g.model === '') throw new TypeError('addLlmGuard: model must not be empty');
  await db
    .insertInto('llm_guard')
    .values({
      day: g.day,
      channel_id: g.channelId ?? '',
      match_id: g.matchId ?? '',
      model: g.model,
      redactions: count(g.redactions, 'redactions'),
      refusals: count(g.refusals, 'refusals'),
    })
    .onConflict((oc) =>
      oc.columns(['day', 'channel_id', 'match_id', 'model']).doUpdateSet((eb) => ({
        redactions: eb('llm_guard.redactions', '+', eb.ref('excluded.redactions')),
        refusals: eb('llm_guard.refusals', '+', eb.ref('excluded.refusals')),
      })),
    )
    .execute();
}

/** Every row of `day`, ordered by channel, match, model; see EventStore.listLlmGuard. */
export async function listLlmGuard(db: Kysely<Database>, day: string): Promise<LlmGuardRecord[]> {
  if (!DAY.test(day)) throw new TypeError(`listLlmGuard: day must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
  const rows = await db
    .selectFrom('llm_guard')
    .selectAll()
    .where('day', '=', day)
    .orderBy('channel_id')
    .orderBy('match_id')
    .orderBy('model')
    .execute();
  return rows.map((raw) => {
    const r = GuardRow.safeParse(raw);
    if (!r.success) throw new StoreError('corrupt_row', `llm_guard row: ${z.prettifyError(r.error)}`);
    const x = r.data;
    return {
      day: x.day,
      channelId: x.channel_id === '' ? null : x.channel_id,
      matchId: x.match_id === '' ? null : x.match_id,
      model: x.model,
      redactions: x.redactions,
      refusals: x.refusals,
    };
  });
}
