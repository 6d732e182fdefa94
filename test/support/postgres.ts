/**
 * PostgreSQL for tests: the server's URL (`TEST_DATABASE_URL`, set by `source .ci/postgres.sh`), one-off admin
 * statements (schema set-up and clean-up), fresh schema names, and the rule every PostgreSQL test follows:
 * run when the URL is set; without it skip outside CI and fail under CI (.ci/run always starts a server,
 * so a missing URL there is a broken setup, not a skip).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';

/** `TEST_DATABASE_URL`, trimmed; '' when unset. */
export const pgUrl = (): string => process.env.TEST_DATABASE_URL?.trim() ?? '';

/** Run one statement on a throwaway connection to {@link pgUrl}. */
export async function pgAdmin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh schema name `<prefix>_<pid>_<6 hex>` (unique across test files running at once). */
export const freshSchema = (prefix: string): string => `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;

/**
 * Define PostgreSQL tests under `name`: `body(url)` when the URL is set; else one test that fails under CI
 * and is skipped (with a console line saying so) outside it.
 */
export function withPostgres(name: string, body: (url: string) => void): void {
  const url = pgUrl();
  if (url !== '') return body(url);
  if (process.env.CI) {
    test(name, () => assert.fail('TEST_DATABASE_URL not set under CI: .ci/run must source .ci/postgres.sh'));
    return;
  }
  console.log(`TEST_DATABASE_URL not set: "${name}" is SKIPPED. Run \`source .ci/postgres.sh\` first.`);
  test(name, (t) => t.skip('TEST_DATABASE_URL not set (outside CI)'));
}
