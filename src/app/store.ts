/**
 * What the data CLIs (`export`, `stats`, `leaderboard`) share: the configuration (`--config`, else
 * config/arena.json and the environment) and the bot's own store (`--db <file>` forces SQLite at that
 * path, else DATABASE_URL / the config file, else ./data/arena.db), closed when the command is done.
 */
import { loadConfig } from './config/index.js';
import type { ArenaConfig } from './config/schema.js';
import { openStore } from '../store/open.js';
import type { EventStore } from '../store/types.js';

/**
 * Run `fn` with the configured store and configuration; returns its exit code, or 2 (message on stderr)
 * when the configuration is invalid. The store is closed afterwards, whatever `fn` does.
 */
export async function withConfiguredStore(
  opts: { db?: string | undefined; config?: string | undefined },
  fn: (store: EventStore, config: ArenaConfig) => Promise<number>,
): Promise<number> {
  const loaded = loadConfig(opts.config);
  if (!loaded.ok) {
    process.stderr.write(`${loaded.error.message}\n`);
    return 2;
  }
  const db = loaded.config.database;
  const store = await openStore(opts.db ? { sqlitePath: opts.db } : { ...(db.url ? { databaseUrl: db.url } : {}), sqlitePath: db.sqlitePath });
  try {
    return await fn(store, loaded.config);
  } finally {
    await store.close();
  }
}
