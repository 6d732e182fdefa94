/**
 * What the data CLIs (`export`, `stats`, `leaderboard`) share: the configuration (`--config`, else
 * config/arena.json and the environment) and the bot's own store (`--db <file>` forces SQLite at that
 * path, else DATABASE_URL / the config file, else ./data/arena.db), closed when the command is done.
 */
import { loadConfig } from './config/index.js';
import type { ArenaConfig } from './config/schema.js';
import type { EventStore } from '../store/types.js';
import { DatabaseUnavailableError, openConfiguredStore } from './open-store.js';

/**
 * Run `fn` with the configured store and configuration; returns its exit code, or 2 (message on stderr)
 * when the configuration is invalid, or 1 (one line on stderr: what failed, which setting) when the
 * database cannot be opened. The store is closed afterwards, whatever `fn` does.
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
  let store: EventStore;
  try {
    store = await openConfiguredStore({ db: opts.db, database: loaded.config.database });
  } catch (err) {
    if (!(err instanceof DatabaseUnavailableError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return err.exitCode;
  }
  try {
    return await fn(store, loaded.config);
  } finally {
    await store.close();
  }
}
