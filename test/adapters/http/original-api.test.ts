/**
 * The original's three API tests (its tests/test_api.py: health/tasks, reset → step → public state, the
 * 403 for private state) against `npm run serve -- --compat original` started as a user starts it (the
 * CLI in a child process), through a plain HTTP client (fetch) that knows nothing of this project. Its
 * answers also parse with the contract's strict schemas, a bad body is FastAPI's 422 `{detail: [...]}`,
 * and the server logs each session's lifecycle at info but no request line.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mustParse, Observation, PublicState } from './original-contract.js';
import { waitUntil } from '../../support/wait.js';

let child: ChildProcess;
let url: string;
let out = '';

before(async () => {
  child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/serve.ts', '--compat', 'original', '--host', '127.0.0.1', '--port', '0'],
    {
      env: {
        ...process.env,
        LOG_LEVEL: 'info',
        ARENA_CONFIG: 'config/arena.example.json',
        ARENA_SERVER_DEBUG_STATE: '',
        GPU_ARENA_DEBUG_STATE: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited (${code}): ${out}`)));
  });
});
after(() => {
  child.removeAllListeners('exit');
  child.kill('SIGTERM');
});

const get = (path: string) => fetch(url + path);
const post = (path: string, body: unknown) =>
  fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe("the original's API tests against --compat original", () => {
  test('test_health_and_tasks', async () => {
    const health = (await (await get('/health')).json()) as { status: string; benchmark_id: string };
    assert.equal(health.status, 'ok');
    assert.equal(health.benchmark_id, 'gpu_budget_negotiation');
    const tasks = (await (await get('/tasks')).json()) as {
      benchmark_id: string;
      tasks: { task_type: string; difficulty: string }[];
    };
    assert.deepEqual(
      new Set(tasks.tasks.map((t) => t.task_type)),
      new Set(['single_trade', 'market_round', 'coalition_market']),
    );
    assert.equal(tasks.benchmark_id, 'gpu_budget_negotiation');
  });

  test('test_reset_step_state_api', async () => {
    const reset = await post('/reset', { task_type: 'single_trade', seed: 99 });
    assert.equal(reset.status, 200);
    const obs = mustParse(Observation, ((await reset.json()) as { observation: unknown }).observation, 'reset');
    assert.equal(obs.task_id, 'single_trade-99');
    const step = await post('/step', { action_type: 'wait' });
    assert.equal(step.status, 200);
    const stepped = (await step.json()) as { observation: unknown };
    assert.ok('observation' in stepped);
    assert.equal(mustParse(Observation, stepped.observation, 'step').last_action_result?.code, 'waited');
    const state = await get('/state');
    assert.equal(state.status, 200);
    const body = (await state.json()) as { state: Record<string, unknown> };
    assert.equal(body.state.task_id, 'single_trade-99');
    assert.ok(!('labs' in body.state));
    mustParse(PublicState, body.state, '/state');
  });

  test('test_private_state_requires_debug_flag', async () => {
    const reset = await post('/reset', { task_type: 'single_trade', seed: 100 });
    assert.equal(reset.status, 200);
    const state = await get('/state?include_private=true');
    assert.equal(state.status, 403);
    const body = (await state.json()) as { detail: string };
    assert.match(body.detail, /GPU_ARENA_DEBUG_STATE=1/);
  });

  test("a body its models refuse is FastAPI's 422 {detail: [{loc, msg, type}]}", async () => {
    const bad = await post('/reset', { task_type: 'single_trade', seed: 'ninety-nine' });
    assert.equal(bad.status, 422);
    const body = (await bad.json()) as { detail: { loc: string[]; msg: string; type: string }[] };
    assert.deepEqual(body.detail[0]!.loc, ['body', 'seed']);
    const action = await post('/step', { action_type: 'send_message', message: 'x'.repeat(501) });
    assert.equal(action.status, 422);
    const d = (await action.json()) as { detail: { loc: string[] }[] };
    assert.deepEqual(d.detail[0]!.loc, ['body', 'message']);
  });

  test('logging: one info line per session lifecycle, no line per request', async () => {
    const msgs = () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
    const count = (m: string) => msgs().filter((x) => x === m).length;
    const [replaced, opened] = [count('session replaced'), count('session opened')];
    for (let i = 0; i < 5; i++) await post('/reset', { seed: i });
    // A reset logs "session replaced", then "session opened". The log is one ordered stream: once the fifth
    // reset's last line is out, so is every line the five requests logged (a request line, if there were one).
    await waitUntil('the five resets to be logged', () => count('session opened') >= opened + 5);
    assert.equal(count('session replaced'), replaced + 5, msgs().join(' | '));
    assert.equal(count('session opened'), opened + 5, msgs().join(' | '));
    assert.ok(
      !msgs().some((m) => m === 'request' || m === 'incoming request' || m === 'request completed'),
      'no request is logged at info',
    );
  });
});
