/**
 * Two stores on one fresh database, as two processes share it: SQLite (one file, two handles) and — when
 * `TEST_DATABASE_URL` is set (test/support/postgres.ts) — PostgreSQL (one fresh schema, two pools).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore, openSqliteStore, type KyselyEventStore } from '../../src/store/index.js';
import { freshSchema, pgAdmin, withPostgres } from './postgres.js';

/** Two stores on one database, and a clean-up. */
export interface StorePair {
  a: KyselyEventStore;
  b: KyselyEventStore;
  close(): Promise<void>;
}

/** A backend that makes {@link StorePair}s. */
export interface PairBackend {
  name: string;
  pair(): Promise<StorePair>;
}

/** Define `suite` on SQLite and on PostgreSQL (under `pgTitle`, by withPostgres's rule); `prefix` names temp files and schemas. */
export function onBothStores(pgTitle: string, prefix: string, suite: (backend: PairBackend) => void): void {
  suite({
    name: 'sqlite',
    async pair() {
      const file = join(mkdtempSync(join(tmpdir(), `${prefix}-`)), 'arena.db');
      const a = await openSqliteStore(file);
      const b = await openSqliteStore(file);
      return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  });
  withPostgres(pgTitle, (url) => {
    suite({
      name: 'postgres',
      async pair() {
        const schema = freshSchema(prefix.replace(/\W/g, '_'));
        const a = await openPostgresStore({ connectionString: url, schema, maxConnections: 4 });
        const b = await openPostgresStore({ connectionString: url, schema, maxConnections: 4 });
        return {
          a,
          b,
          close: async () => {
            await Promise.all([a.close(), b.close()]);
            await pgAdmin(`drop schema if exists ${schema} cascade`);
          },
        };
      },
    });
  });
}
