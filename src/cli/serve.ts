/**
 * `npm run serve -- [--config file] [--host h] [--port n] [--compat original]`: the trainer HTTP API
 * (app.ts) on the configured address (config `server.*`, env `ARENA_SERVER_*`; the options win).
 * `--compat original` answers in the original arena's exact shapes (docs/HTTP-API.md). Requests are
 * logged at debug (`LOG_LEVEL=debug`), session lifecycles at info. Prints the URL, stops cleanly on
 * SIGINT/SIGTERM. Exit codes: 0 stopped, 2 bad configuration or options, 1 could not listen.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { loadConfig } from '../app/config/index.js';
import { buildApp } from '../adapters/http/app.js';
import { drainWithin, untilStopSignal } from '../app/shutdown.js';

const OptionsSchema = z.object({
  config: z.string().optional(),
  host: z.string().trim().min(1).optional(),
  port: z.coerce.number().int().min(0).max(65535).optional(),
  compat: z.enum(['native', 'original']).optional(),
});

function fail(message: string, code: number): never {
  console.error(`serve: ${message}`);
  process.exit(code);
}

async function main(): Promise<void> {
  const program = new Command()
    .name('serve')
    .description(
      'The arena engine over HTTP for trainers: POST /reset, POST /step, GET /state, GET /tasks, GET /health, DELETE /session/:id, /openapi.json.',
    )
    .option('--config <file>', 'config file (default: ARENA_CONFIG or config/arena.json)')
    .option('--host <host>', 'address to listen on (config server.host)')
    .option('--port <port>', 'port (config server.port; 0 = any free port)')
    .option('--compat <shapes>', "answer shapes: native or original (the original arena's; config server.compat)")
    .parse();
  const parsed = OptionsSchema.safeParse(program.opts());
  if (!parsed.success) fail(parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '), 2);
  const loaded = loadConfig(parsed.data.config);
  if (!loaded.ok) fail(loaded.error.message, 2);
  const server = { ...loaded.config.server, compat: parsed.data.compat ?? loaded.config.server.compat };
  const { app } = await buildApp({ server, logger: { level: loaded.config.log.level } });
  const host = parsed.data.host ?? server.host;
  const port = parsed.data.port ?? server.port;
  try {
    const address = await app.listen({ host, port });
    console.log(
      `arena server listening on ${address} (${server.compat === 'original' ? "the original's answer shapes" : 'native answers'}, max ${server.maxSessions} sessions, ${server.maxSessionsPerClient} per client, idle TTL ${server.idleTtlSeconds} s, body limit ${server.bodyLimitBytes} bytes${server.debugState ? ', DEBUG full state on' : ''})`,
    );
  } catch (e) {
    fail(`could not listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}`, 1);
  }
  // A bounded stop (src/app/shutdown.ts): requests in flight get `shutdown.drainSeconds`, a second signal exits at once.
  await untilStopSignal(app.log);
  await drainWithin(() => app.close(), loaded.config.shutdown.drainSeconds, app.log);
  process.exit(0);
}

void main();
