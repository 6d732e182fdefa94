/** A real server on 127.0.0.1 (a free port) with a settable clock, and a client for it. */
import assert from 'node:assert/strict';
import { buildApp, type AppOptions } from '../../../src/adapters/http/app.js';
import { ArenaClient, type ApiResult } from '../../../src/adapters/http/client.js';
import type { SessionStore } from '../../../src/adapters/http/sessions.js';

export interface Harness {
  url: string;
  client: ArenaClient;
  store: SessionStore;
  /** Move the server's clock forward (ms). */
  advance(ms: number): void;
  close(): Promise<void>;
}

export const DEFAULT_SERVER: AppOptions['server'] = {
  maxSessions: 128,
  maxSessionsPerClient: 128,
  idleTtlSeconds: 600,
  bodyLimitBytes: 16_384,
  debugState: false,
};

export async function startServer(server: Partial<AppOptions['server']> = {}): Promise<Harness> {
  let now = 1_000_000;
  const { app, store } = await buildApp({ server: { ...DEFAULT_SERVER, ...server }, now: () => now });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  const client = new ArenaClient(url);
  return {
    url,
    client,
    store,
    advance: (ms) => {
      now += ms;
    },
    close: async () => {
      client.close();
      await app.close();
    },
  };
}

/** The body of a successful call (fails the test with the server's error otherwise). */
export function ok<T>(r: ApiResult<T>): T {
  if (!r.ok) assert.fail(`expected success, got ${r.status} ${r.error.code}: ${r.error.message}`);
  return r.body;
}

/** The error of a refused call (fails the test on success). */
export function refused<T>(r: ApiResult<T>): { status: number; code: string; message: string } {
  if (r.ok) assert.fail(`expected a refusal, got ${r.status}`);
  return { status: r.status, code: r.error.code, message: r.error.message };
}

/** The observation without the original-name aliases (what the gym's observe returns). */
export function ours(obs: Record<string, unknown>): Record<string, unknown> {
  const o = { ...obs };
  for (const k of [
    'task_id',
    'round_index',
    'max_rounds',
    'controlled_lab_id',
    'controlled_lab_budget',
    'controlled_lab_reputation',
    'private_jobs',
    'owned_blocks',
    'visible_labs',
    'active_offers',
    'active_coalitions',
    'message_history',
    'last_action_result',
    'reward',
    'cumulative_reward',
    'reward_breakdown',
    'done',
  ])
    delete o[k];
  return o;
}
