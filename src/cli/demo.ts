/**
 * `npm run demo`: a whole match of scripted seats (rule_based_expert on lab_0, archetypes elsewhere),
 * played through the real command catalogue and round host, printed as the channel would see it.
 *
 *     npm run demo -- [--task market_round] [--seed 42] [--db :memory:] [--pace 1.5] [--step] [--charts dir]
 *
 * With no person or agent seat and no round timer every round closes as soon as it opens, so `start`
 * plays the match to its final leaderboard. The posts tell it as a story (each seat's offers with terms,
 * answers, pitches, messages, the judge's checked claims, shocks, settlements, and at the end how each
 * seat scored); they are printed one by one, `--pace` seconds apart (default 1.5 on a terminal, 0 when
 * piped), or a round at a time with `--step` (Enter for the next). The final charts are written to
 * `--charts` (default ./data/charts) and their paths printed. Exit 0 when the match ended, 1 otherwise.
 */
import { Command, Option } from 'commander';
import { z } from 'zod';
import { renderReply } from '../adapters/console/render.js';
import { DEFAULT_CHARTS_DIR, writeReplyCharts } from '../adapters/console/charts.js';
import { formatCommand, runText, type Caller } from '../commands/index.js';
import { TASK_NAMES, type TaskName } from '../engine/types.js';
import { RoundHost } from '../host/index.js';
import { openStore } from '../store/open.js';

const DEMO_CHANNEL = 'demo:arena';
const DEMO_HOST: Caller = { userId: 'demo:host', displayName: 'demo host', isAdmin: true };

const ArgsSchema = z.object({
  task: z.enum(TASK_NAMES as [TaskName, ...TaskName[]]),
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  db: z.string().min(1),
  pace: z.coerce.number().min(0).max(60).optional(),
  step: z.boolean().default(false),
  charts: z.string().min(1),
});

const sleep = (s: number) => new Promise((res) => setTimeout(res, s * 1000));

/** Resolves on the next line typed on stdin (for --step). */
function nextLine(): Promise<void> {
  return new Promise((res) => process.stdin.once('data', () => res()));
}

async function main(): Promise<number> {
  const program = new Command()
    .name('demo')
    .description('Play a whole match of scripted seats and print the channel transcript.')
    .addOption(new Option('--task <task>', 'task').choices([...TASK_NAMES]).default('market_round'))
    .option('--seed <n>', 'seed (default: random, printed)')
    .option('--db <file>', 'SQLite file for the event log', ':memory:')
    .option('--pace <seconds>', 'pause between posts (default 1.5 on a terminal, 0 when piped)')
    .option('--step', 'show one round at a time: press Enter for the next')
    .option('--charts <dir>', 'where the final charts are written', DEFAULT_CHARTS_DIR)
    .parse(process.argv);
  const parsed = ArgsSchema.safeParse(program.opts());
  if (!parsed.success)
    return program.error(`error: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`, {
      exitCode: 2,
    });
  const args = parsed.data;
  const pace = args.pace ?? (process.stdout.isTTY ? 1.5 : 0);
  const seed = args.seed ?? Math.floor(Math.random() * 1_000_000);
  const store = await openStore({ sqlitePath: args.db });
  const host = new RoundHost({
    store,
    publish: async (_c, reply) => void out(renderReply(reply, { color: false, userId: DEMO_HOST.userId })),
  });
  const out = (text: string) => process.stdout.write(text);
  try {
    out(`# GPU Arena demo: ${args.task}, seed ${seed} (replay: npm run demo -- --task ${args.task} --seed ${seed})\n`);
    out(
      '# Every seat is scripted: lab_0 plays rule_based_expert, the others the archetypes; the rule judge scores pitches.\n\n',
    );
    const lines = [
      formatCommand('new', { task: args.task, seed, round_seconds: 0 }),
      formatCommand('seat', { lab: 'lab_0', agent: 'scripted', policy: 'rule_based_expert' }),
      'start',
    ];
    for (const line of lines) {
      out(`> /arena ${line}\n`);
      const reply = await runText(host, DEMO_CHANNEL, DEMO_HOST, line);
      if (reply.error) {
        out(renderReply(reply, { color: false, userId: DEMO_HOST.userId }));
        return 1;
      }
      // One post at a time, paced; with --step, a pause after each round's close.
      for (const post of reply.public) {
        out(renderReply({ public: [post], private: [] }, { color: false, userId: DEMO_HOST.userId }));
        const closed = / closed: /.test(post.title ?? '');
        if (args.step && closed) {
          out('-- Enter for the next round --\n');
          await nextLine();
        } else if (pace > 0) await sleep(pace);
      }
      const paths = await writeReplyCharts(reply, args.charts);
      for (const path of paths) out(`chart: ${path}\n`);
    }
    if (args.step) process.stdin.pause();
    await host.idle();
    const still = await host.current(DEMO_CHANNEL);
    if (still) {
      out(`The match did not finish (phase ${still.phase}).\n`);
      return 1;
    }
    return 0;
  } finally {
    await host.stop();
    await store.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`demo: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
