/**
 * LLM token usage over Kysely (the same queries on SQLite and PostgreSQL; table `llm_usage`, migrations
 * 0004 and 0008). Split from kysely-store.ts, which delegates here. One row per (UTC day, channel, match,
 * model) holds running sums and the person they count against (the match's host); every write is ONE statement,
 * `INSERT … ON CONFLICT (day, channel_id, match_id, model) DO UPDATE SET tokens = llm_usage.tokens + excluded.tokens, …`,
 * which the database makes atomic, so several bot processes on one database add to the same count and
 * never lose an increment.
 */
import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { Database } from './schema.js';
import { StoreError, type LlmSpent, type LlmUsageDelta, type LlmUsageRecord, type LlmSpentQuery } from './types.js';

/** A UTC day as `YYYY-MM-DD`. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** PostgreSQL returns bigint and sum() as strings, SQLite as numbers: both become a safe integer ≥ 0. */
export const Count = z.union([z.number(), z.string(), z.bigint()]).transform((v, ctx) => {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: `not a count: ${String(v)}` });
    return z.NEVER;
  }
  return n;
});

const UsageRow = z.object({
  day: z.string().regex(DAY),
  channel_id: z.string(),
  match_id: z.string(),
  person_id: z.string(),
  model: z.string(),
  calls: Count,
  refused: Count,
  prompt_tokens: Count,
  completion_tokens: Count,
  tokens: Count,
});

const SpentRow = z.object({ deployment: Count, channel: Count, match: Count, person: Count });

/** `n` (missing = 0) when it is an integer ≥ 0; else a TypeError naming `what`. */
export const count = (n: number | undefined, what: string): number => {
  const v = n ?? 0;
  if (!Number.isSafeInteger(v) || v < 0)
    throw new TypeError(`addLlmUsage: ${what} must be an integer >= 0, got ${String(n)}`);
  return v;
};

/** Add one call (or refusal) to its row, atomically; see EventStore.addLlmUsage. */
export async function addLlmUsage(db: Kysely<Database>, u: LlmUsageDelta): Promise<void> {
  if (!DAY.test(u.day)) throw new TypeError(`addLlmUsage: day must be YYYY-MM-DD, got ${JSON.stringify(u.day)}`);
  if (u.model === '') throw new TypeError('addLlmUsage: model must not be empty');
  const prompt = count(u.promptTokens, 'promptTokens');
  const completion = count(u.completionTokens, 'completionTokens');
  await db
    .insertInto('llm_usage')
    .values({
      day: u.day,
      channel_id: u.channelId ?? '',
      match_id: u.matchId ?? '',
      person_id: u.personId ?? '',
      model: u.model,
      calls: count(u.calls, 'calls'),
      refused: count(u.refused, 'refused'),
      prompt_tokens: prompt,
      completion_tokens: completion,
      tokens: prompt + completion,
    })
    .onConflict((oc) =>
      oc.columns(['day', 'channel_id', 'match_id', 'model']).doUpdateSet((eb) => ({
        // Qualified on the left of +: PostgreSQL finds a bare column name ambiguous next to `excluded`.
        calls: eb('llm_usage.calls', '+', eb.ref('excluded.calls')),
        refused: eb('llm_usage.refused', '+', eb.ref('excluded.refused')),
        prompt_tokens: eb('llm_usage.prompt_tokens', '+', eb.ref('excluded.prompt_tokens')),
        completion_tokens: eb('llm_usage.completion_tokens', '+', eb.ref('excluded.completion_tokens')),
        tokens: eb('llm_usage.tokens', '+', eb.ref('excluded.tokens')),
        // A match has one host; a row written before migration 0008 ('') takes it on its first new call.
        person_id: eb.ref('excluded.person_id'),
      })),
    )
    .execute();
}

/** Tokens spent by the deployment, a channel and a person on `day`, and by a match on every day; see EventStore.llmSpent. */
export async function llmSpent(db: Kysely<Database>, q: LlmSpentQuery): Promise<LlmSpent> {
  if (!DAY.test(q.day)) throw new TypeError(`llmSpent: day must be YYYY-MM-DD, got ${JSON.stringify(q.day)}`);
  const tokens = sql.ref('tokens');
  const onDay = sql`${sql.ref('day')} = ${q.day}`;
  // A missing channel or match sums nothing (`1 = 0`), so one statement serves every call.
  const inChannel = q.channelId ? sql`${onDay} and ${sql.ref('channel_id')} = ${q.channelId}` : sql`1 = 0`;
  const ofMatch = q.matchId ? sql`${sql.ref('match_id')} = ${q.matchId}` : sql`1 = 0`;
  const ofPerson = q.personId ? sql`${onDay} and ${sql.ref('person_id')} = ${q.personId}` : sql`1 = 0`;
  const row = await db
    .selectFrom('llm_usage')
    .select([
      sql<string | number>`coalesce(sum(case when ${onDay} then ${tokens} else 0 end), 0)`.as('deployment'),
      sql<string | number>`coalesce(sum(case when ${inChannel} then ${tokens} else 0 end), 0)`.as('channel'),
      sql<string | number>`coalesce(sum(case when ${ofMatch} then ${tokens} else 0 end), 0)`.as('match'),
      sql<string | number>`coalesce(sum(case when ${ofPerson} then ${tokens} else 0 end), 0)`.as('person'),
    ])
    // Only today's rows and the match's rows (primary key prefix `day`, index `llm_usage_by_match`).
    .where(sql<boolean>`${onDay} or ${ofMatch}`)
    .executeTakeFirst();
  const parsed = SpentRow.safeParse(row ?? { deployment: 0, channel: 0, match: 0, person: 0 });
  if (!parsed.success) throw new StoreError('corrupt_row', `llm_usage sums: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** Every row of `day`, ordered by channel, match, model; see EventStore.listLlmUsage. */
export async function listLlmUsage(db: Kysely<Database>, day: string): Promise<LlmUsageRecord[]> {
  if (!DAY.test(day)) throw new TypeError(`listLlmUsage: day must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
  const rows = await db
    .selectFrom('llm_usage')
    .selectAll()
    .where('day', '=', day)
    .orderBy('channel_id')
    .orderBy('match_id')
    .orderBy('model')
    .execute();
  return rows.map((raw) => {
    const r = UsageRow.safeParse(raw);
    if (!r.success) throw new StoreError('corrupt_row', `llm_usage row: ${z.prettifyError(r.error)}`);
    const x = r.data;
    return {
      day: x.day,
      channelId: x.channel_id === '' ? null : x.channel_id,
      matchId: x.match_id === '' ? null : x.match_id,
      personId: x.person_id === '' ? null : x.person_id,
      model: x.model,
      calls: x.calls,
      refused: x.refused,
      promptTokens: x.prompt_tokens,
      completionTokens: x.completion_tokens,
      tokens: x.tokens,
    };
  });
}
