/**
 * A bounded, graceful stop for every long-running entry point: on the first SIGTERM or
 * SIGINT the process stops taking commands, lets the ones in flight finish and flushes queued posts for at
 * most `shutdown.drainSeconds` (default 10), then closes the store and exits 0; a second signal exits at
 * once (128 + the signal's number, as a shell reports it). A platform whose API has gone away can no longer
 * hold a deployment's restart (systemd, Kubernetes) until its grace period kills the process.
 */
/** The logger calls a stop makes (pino's, or Fastify's `app.log`). */
export type StopLogger = {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
  flush?: () => void;
};

/** Exit code of a second (forced) signal: 128 + its number. */
const FORCED_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/** Test seam: what a second signal does (default: exit at once). */
export interface SignalOptions {
  /** Called on the second signal; default `process.exit(128 + n)`. */
  onSecond?: (signal: NodeJS.Signals) => void;
}

/**
 * Resolves with the first SIGINT or SIGTERM; from then on the next one calls `onSecond` (default: exit
 * at once with 130 / 143 and a log line). The handlers stay installed, so Node's default (kill without
 * any cleanup) never applies to the first signal.
 */
export function untilStopSignal(logger: StopLogger, opts: SignalOptions = {}): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let first: NodeJS.Signals | null = null;
    const on = (signal: NodeJS.Signals) => {
      if (first === null) {
        first = signal;
        resolve(signal);
        return;
      }
      logger.warn({ signal }, 'second stop signal: exiting now');
      if (opts.onSecond) return opts.onSecond(signal);
      logger.flush?.();
      process.exit(FORCED_EXIT[signal] ?? 1);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** What {@link drainWithin} reports: whether the work finished in time, and how long it took (ms). */
export interface DrainOutcome {
  drained: boolean;
  ms: number;
}

/**
 * Run `work` (finish in-flight commands, flush posts, stop timers) for at most `seconds`; past that it is
 * abandoned (left to die with the process) and `drained` is false. A failure of `work` is logged, never
 * thrown: the stop goes on.
 */
export async function drainWithin(
  work: () => Promise<void>,
  seconds: number,
  logger: StopLogger,
): Promise<DrainOutcome> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), Math.max(0, seconds * 1000))));
  const done = work().then(
    () => 'done' as const,
    (err: unknown) => {
      logger.error({ err: err instanceof Error ? err.message : String(err) }, 'stop: draining failed');
      return 'done' as const;
    },
  );
  const first = await Promise.race([done, late]);
  clearTimeout(timer);
  const ms = Math.round(performance.now() - started);
  if (first === 'late')
    logger.warn({ drainSeconds: seconds, ms }, 'stop: drain time is up; in-flight work and queued posts are abandoned');
  return { drained: first === 'done', ms };
}
