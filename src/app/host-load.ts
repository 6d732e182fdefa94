/**
 * The host load pattern of `npm run bench:footprint`: many live matches in one round host, each with two
 * people who run `status`, `me`, `message`, `offer`, `pitch` and `done` every round through the command
 * catalogue (as the adapters do), on a file SQLite store. Rounds advance together across matches, so every
 * match stays live until its last round. Returns counts and timings; the caller reports them.
 */
import { performance } from 'node:perf_hooks';
import type { Caller, Reply } from '../chat/types.js';
import { runText } from '../commands/index.js';
import { RoundHost } from '../host/index.js';
import type { EventStore } from '../store/types.js';

/** Options of {@link runHostLoad}. */
export interface HostLoadOptions {
  store: EventStore;
  /** Live matches in the host (default 100). */
  matches?: number;
  /** Rounds played per match (default 4 of market_round's 5, so every match is still live at the end). */
  rounds?: number;
  /** Called after each round of all matches with the commands run so far (e.g. to sample memory). */
  onRound?: (round: number, commands: number) => void;
}

/** What {@link runHostLoad} measured: commands run, how many failed, wall time of the play phase (ms). */
export interface HostLoadResult {
  matches: number;
  commands: number;
  failed: number;
  /** First error code seen, for the report (null when none failed). */
  firstError: string | null;
  /** Wall time of the rounds (ms), set-up (new, join, start) excluded. */
  ms: number;
}

const person = (i: number, who: 'a' | 'b'): Caller => ({
  userId: `bench:u${i}${who}`,
  displayName: `P${i}${who}`,
  isAdmin: false,
});

/** Run the load (see the file comment). Never throws for a refused command: it is counted in `failed`. */
export async function runHostLoad(opts: HostLoadOptions): Promise<HostLoadResult> {
  const n = opts.matches ?? 100;
  const rounds = opts.rounds ?? 4;
  const host = new RoundHost({ store: opts.store, publish: async () => {} });
  let commands = 0;
  let failed = 0;
  let firstError: string | null = null;
  const run = async (i: number, who: Caller, text: string): Promise<Reply> => {
    const r = await runText(host, `bench:c${i}`, who, text);
    commands++;
    if (r.error) {
      failed++;
      firstError ??= `${r.error.code}: ${text}`;
    }
    return r;
  };
  try {
    await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const [a, b] = [person(i, 'a'), person(i, 'b')];
        await run(i, a, `new task:market_round seed:${i} round_seconds:0`);
        await run(i, a, 'join lab:lab_0');
        await run(i, b, 'join lab:lab_1');
        await run(i, a, 'start');
      }),
    );
    commands = 0;
    failed = 0;
    firstError = null;
    const started = performance.now();
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const seats: [Caller, string, string][] = [
            [person(i, 'a'), 'lab_0', 'lab_1'],
            [person(i, 'b'), 'lab_1', 'lab_0'],
          ];
          for (const [who, lab, other] of seats) {
            await run(i, who, 'status');
            await run(i, who, 'me');
            await run(i, who, `message to:${other} text:"round ${round + 1}: shall we trade?"`);
            // Offer a block the seat still holds (scripted seats trade and allocate in between).
            const state = (await host.current(`bench:c${i}`))?.state;
            const block = Object.values(state?.blocks ?? {}).find(
              (k) => k.owner === lab && k.status === 'available',
            )?.id;
            await run(
              i,
              who,
              block
                ? `offer to:${other} give:${block} pay:1 msg:"for your spare hours"`
                : `offer to:${other} pay:1 msg:"a credit for any spare hours"`,
            );
            await run(i, who, `pitch text:"Round ${round + 1}: my jobs need reliable blocks before their deadlines."`);
          }
          for (const [who] of seats) await run(i, who, 'done');
        }),
      );
      opts.onRound?.(round + 1, commands);
    }
    return { matches: n, commands, failed, firstError, ms: performance.now() - started };
  } finally {
    await host.stop();
  }
}
