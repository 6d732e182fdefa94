/**
 * `npm run web -- [--config file] [--host h] [--port n]`: the public web page (src/web): matches, live
 * views, replays, leaderboard, preference data and web voting, on the bots' database (config `database.*`,
 * read-only except vote rows and link claims) at the configured address (config `web.*`, env
 * `ARENA_WEB_*`; the options win). Its own process: a fault here cannot take a bot down. Stops cleanly on
 * SIGINT/SIGTERM within `shutdown.drainSeconds`. Exit codes: 0 stopped, 2 bad configuration or options, 1 could not listen.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../app/config/index.js';
import { DatabaseUnavailableError, openConfiguredStore } from '../app/open-store.js';
import { buildWebApp } from '../web/app.js';
import { redactUrls } from '../llm/redact.js';
import { drainWithin, untilStopSignal } from '../app/shutdown.js';

const OptionsSchema = z.object({
  config: z.string().optional(),
  host: z.string().trim().min(1).optional(),
  port: z.coerce.number().int().min(0).max(65535).optional(),
});

function fail(message: string, code: number): never {
  console.error(`web: ${message}`);
  process.exit(code);
}

async function main(): Promise<void> {
  const program = new Command()
    .name('web')
    .description(
      'The public web page: matches, live views over server-sent events, replays, leaderboard, preference data, web votes.',
    )
    .option('--config <file>', 'config file (default: ARENA_CONFIG or config/arena.json)')
    .option('--host <host>', 'address to listen on (config web.host)')
    .option('--port <port>', 'port (config web.port; 0 = any free port)')
    .parse();
  const parsed = OptionsSchema.safeParse(program.opts());
  if (!parsed.success) fail(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '), 2);
  const loaded = loadConfig(parsed.data.config);
  if (!loaded.ok) fail(loaded.error.message, 2);
  const config = loaded.config;
  const store = await openConfiguredStore({ database: config.database }).catch((err: unknown) => {
    if (err instanceof DatabaseUnavailableError) fail(err.message, err.exitCode);
    throw err;
  });
  const { app } = await buildWebApp(
    store,
    { web: config.web, votes: config.votes, data: config.data },
    { logger: { level: config.log.level } },
  );
  const host = parsed.data.host ?? config.web.host;
  const port = parsed.data.port ?? config.web.port;
  try {
    const address = await app.listen({ host, port });
    console.log(
      `arena web page on ${address} (people shown as ${config.web.people}; web votes ${config.web.publicUrl ? `linked from ${redactUrls(config.web.publicUrl)}` : 'off: set web.publicUrl'}; exports ${config.web.adminToken ? 'for the admin token' : 'off'})`,
    );
  } catch (e) {
    await store.close();
    fail(`could not listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`, 1);
  }
  // A bounded stop (src/app/shutdown.ts): open streams and requests get `shutdown.drainSeconds`, then the
  // store closes; a second signal exits at once.
  await untilStopSignal(app.log);
  await drainWithin(
    async () => {
      await app.close();
      await store.close();
    },
    config.shutdown.drainSeconds,
    app.log,
  );
  process.exit(0);
}

void main();
