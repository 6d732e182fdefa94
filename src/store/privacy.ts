/**
 * Consent and erasure over Kysely (the same queries on SQLite and PostgreSQL; docs/PREFERENCE-DATA.md#consent-and-erasure).
 * Split from kysely-store.ts, which delegates here. A consent is one row per person (an upsert on its
 * primary key); an erasure runs in one transaction: the person's votes deleted, the given event bodies
 * rewritten (their words replaced by a tombstone, src/match/erase.ts decides which), and one log row that
 * names the person only by pseudonym and counts what was removed, never the content.
 */
import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { ConsentRecord, ConsentState, ErasureRecord, EventRewrite } from './types.js';

const STATES: readonly ConsentState[] = ['asked', 'granted', 'declined'];

const toConsent = (r: { user_id: string; state: string; notice_version: string; at: string }): ConsentRecord => {
  if (!STATES.includes(r.state as ConsentState)) throw new TypeError(`consents: bad state ${JSON.stringify(r.state)}`);
  return { userId: r.user_id, state: r.state as ConsentState, noticeVersion: r.notice_version, at: r.at };
};

/** Record `c` (replacing the person's earlier answer). */
export async function setConsent(db: Kysely<Database>, c: ConsentRecord): Promise<void> {
  await db
    .insertInto('consents')
    .values({ user_id: c.userId, state: c.state, notice_version: c.noticeVersion, at: c.at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ state: c.state, notice_version: c.noticeVersion, at: c.at }))
    .execute();
}

/** The person's answer, or null when they were never asked or answered. */
export async function getConsent(db: Kysely<Database>, userId: string): Promise<ConsentRecord | null> {
  const r = await db.selectFrom('consents').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return r ? toConsent(r) : null;
}

/** Every recorded answer, by user id. */
export async function listConsents(db: Kysely<Database>): Promise<ConsentRecord[]> {
  return (await db.selectFrom('consents').selectAll().orderBy('user_id').execute()).map(toConsent);
}

/** Delete `userId`'s votes, rewrite `rewrites`, and log the erasure, in one transaction; the log row. */
export async function erase(
  db: Kysely<Database>,
  userId: string,
  rewrites: readonly EventRewrite[],
  log: Omit<ErasureRecord, 'votes' | 'texts'>,
): Promise<ErasureRecord> {
  return db.transaction().execute(async (tx) => {
    const del = await tx.deleteFrom('votes').where('voter_id', '=', userId).executeTakeFirst();
    for (const w of rewrites) {
      await tx
        .updateTable('events')
        .set({ body: JSON.stringify(w.body) })
        .where('match_id', '=', w.matchId)
        .where('seq', '=', w.seq)
        .execute();
    }
    const rec: ErasureRecord = {
      ...log,
      votes: Number(del.numDeletedRows),
      texts: rewrites.reduce((a, w) => a + w.texts, 0),
    };
    await tx
      .insertInto('erasures')
      .values({ id: rec.id, at: rec.at, subject: rec.subject, votes: rec.votes, texts: rec.texts })
      .execute();
    return rec;
  });
}

/** The erasure log, oldest first. */
export async function listErasures(db: Kysely<Database>): Promise<ErasureRecord[]> {
  const rows = await db.selectFrom('erasures').selectAll().orderBy('at').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, at: r.at, subject: r.subject, votes: Number(r.votes), texts: Number(r.texts) }));
}
