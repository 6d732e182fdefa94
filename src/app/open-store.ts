/**
 * Opening the configured store at an entry point (`npm start` and the bots, `npm run web`, `stats`, `export`,
 * `leaderboard`): a database that cannot be opened is one clear line for the person who ran the command —
 * what failed, where (its URL without credentials, or the file) and which setting chose it — instead of a
 * driver's stack trace. The driver's own reason (`connect ECONNREFUSED 127.0.0.1:5432`, `password
 * authentication failed for user "arena"`, `unable to open database file`) ends the line.
 */
import { CodedError } from '../errors/coded-error.js';
import { redactUrls } from '../llm/redact.js';
import { openStore } from '../store/open.js';
import type { EventStore } from '../store/types.js';

/** Which database an entry point opens: `--db` (SQLite) wins, else the configuration's `database.*`. */
export interface StoreSelection {
  /** The `--db <file>` option, if given. */
  db?: string | undefined;
  database: { url: string | null; sqlitePath: string };
}

/** The store could not be opened (code `database_unavailable`): `message` is the line to print (no stack); exit code 1. */
export class DatabaseUnavailableError extends CodedError<'database_unavailable'> {
  override readonly name = 'DatabaseUnavailableError';
  readonly exitCode = 1;
}

/** The driver's reason, from the error or its causes (pg reports a refused connection as an AggregateError with no message). */
function reasonOf(err: unknown): string {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const x = e as { message?: unknown; code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof x.message === 'string' && x.message.trim() !== '' && !/^migration_failed: /.test(x.message))
      return x.message.trim().split('\n')[0]!;
    if (Array.isArray(x.errors) && x.errors.length > 0) e = x.errors[0];
    else if (x.cause !== undefined) e = x.cause;
    else return typeof x.code === 'string' ? x.code : String(err);
  }
  return String(err);
}

/** Where the store lives and the setting that chose it, as the line names them. */
function describe(sel: StoreSelection): { where: string; setting: string } {
  if (sel.db) return { where: `the SQLite file ${sel.db}`, setting: 'the --db option' };
  if (sel.database.url)
    return { where: `the database ${redactUrls(sel.database.url)}`, setting: 'database.url / DATABASE_URL' };
  return { where: `the SQLite file ${sel.database.sqlitePath}`, setting: 'database.sqlitePath / ARENA_DB' };
}

/**
 * Open (and migrate) the selected store.
 * @throws {DatabaseUnavailableError} when it cannot be opened, e.g. "cannot open the database
 *   postgres://arena:***@db:5432/arena (setting database.url / DATABASE_URL): connect ECONNREFUSED 10.0.0.5:5432".
 */
export async function openConfiguredStore(sel: StoreSelection): Promise<EventStore> {
  try {
    return await openStore(
      sel.db
        ? { sqlitePath: sel.db }
        : { ...(sel.database.url ? { databaseUrl: sel.database.url } : {}), sqlitePath: sel.database.sqlitePath },
    );
  } catch (err) {
    const { where, setting } = describe(sel);
    throw new DatabaseUnavailableError(
      'database_unavailable',
      `cannot open ${where} (setting ${setting}): ${redactUrls(reasonOf(err))}`,
      { cause: err },
    );
  }
}

/**
 * The line an entry point prints for an error that ended it: the message alone for a
 * {@link DatabaseUnavailableError}, else the stack (an unexpected failure); URLs without credentials either way.
 */
export function fatalLine(tool: string, err: unknown): string {
  const text =
    err instanceof DatabaseUnavailableError
      ? err.message
      : err instanceof Error
        ? (err.stack ?? err.message)
        : String(err);
  return `${tool}: ${redactUrls(text)}\n`;
}
