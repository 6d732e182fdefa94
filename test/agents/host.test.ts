/**
 * LLM seats and the LLM judge through the real round host (src/host), the real openai client and the
 * local emulator: parallel agent turns, a judge timeout falling back to the rule judge, replay without
 * model calls.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { labIdsFor, observe } from '../../src/engine/index.js';
import { createLlmJudge, LLM_JUDGE_ID } from '../../src/agents/llm-judge.js';
import { RULE_JUDGE_ID } from '../../src/engine/judge/rule-judge.js';
import { llmAgentFactory } from '../../src/agents/seat-agent.js';
import { RoundHost, replay } from '../../src/host/index.js';
import type { EventStore } from '../../src/store/index.js';
import { startOpenAiEmulator, type OpenAiEmulator, type RecordedRequest } from '../emulators/openai.js';
import { harness, person, publicText, publishedText, unwrap } from '../host/helpers.js';
import { waitUntil } from '../support/wait.js';
import { contestedSeed, emuClient, honest, market, v, verdictFor } from './helpers.js';

const HOST = person('host');
const ALICE = person('alice');
const BOB = person('bob');
const WAIT_REPLY = JSON.stringify({ plan: null, actions: [{ action_type: 'wait' }], pitch: null });

const closedRounds = async (store: EventStore, id: string) =>
  (await store.load(id)).flatMap((e) => (e.body.type === 'round_closed' ? [e.body] : []));

describe('LLM seats and judge through the round host', () => {
  let emu: OpenAiEmulator;
  before(async () => {
    emu = await startOpenAiEmulator();
  });
  after(() => emu.close());

  test('five LLM seats are asked in parallel: all five requests are in flight before any is answered', async () => {
    const seed =
      Array.from({ length: 50 }, (_, i) => i).find((s) => labIdsFor('coalition_market', s).length === 5) ?? -1;
    const labs = labIdsFor('coalition_market', seed);
    assert.equal(labs.length, 5);
    // A barrier instead of a clock: no reply leaves until the fifth request has arrived. Asked one after
    // another, the first seat would wait for an answer that never comes; the barrier then opens after 10 s
    // only so that such a run fails on the count below rather than hanging.
    let arrived = 0;
    let open: () => void = () => {};
    const barrier = new Promise<void>((r) => (open = r));
    const breaker = setTimeout(() => open(), 10_000);
    emu.setResponder(() => {
      if (++arrived === labs.length) open();
      return { until: barrier, content: WAIT_REPLY };
    });
    emu.resetInFlightPeak();
    const h = await harness({ agentFor: llmAgentFactory(emuClient(emu, { maxConcurrent: 8 })) });
    const m = unwrap(await h.host.create('c-par', 'test', HOST, { task: 'coalition_market', seed, roundSeconds: 0 }));
    for (const lab of labs) unwrap(await h.host.assign('c-par', HOST, lab, { kind: 'llm', model: 'agent-m' }));
    const n0 = emu.chatRequests().length;
    unwrap(await h.host.start('c-par', HOST));
    await waitUntil('round 0 to close', async () => (await closedRounds(h.store, m.id)).length > 0, {
      timeoutMs: 60_000,
    });
    clearTimeout(breaker);
    unwrap(await h.host.end('c-par', HOST));
    await h.host.stop();
    const first = emu.chatRequests().slice(n0, n0 + 5);
    assert.deepEqual(new Set(first.map((r) => r.body?.model)), new Set(['agent-m']));
    assert.equal(emu.inFlightPeak(), 5, 'five requests open at once: the seats were asked in parallel');
    const acted = (await h.store.load(m.id))
      .filter((e) => e.body.type === 'action' && e.seq < 40)
      .map((e) => (e.body as { lab: string }).lab);
    assert.deepEqual(new Set(acted), new Set(labs));
  });

  test('a failing model makes its seat wait, visibly; the match goes on', async () => {
    emu.setResponder(() => ({ content: 'no JSON here' }));
    const h = await harness({ agentFor: llmAgentFactory(emuClient(emu)) });
    const m = unwrap(await h.host.create('c-fail', 'test', HOST, { task: 'market_round', seed: 5, roundSeconds: 0 }));
    unwrap(await h.host.join('c-fail', ALICE, 'lab_0'));
    unwrap(await h.host.assign('c-fail', HOST, 'lab_1', { kind: 'llm', model: 'agent-m' }));
    unwrap(await h.host.start('c-fail', HOST));
    await h.host.idle();
    assert.match(publishedText(h), /could not act \(agent error: LLM invalid_json[^)]*\); the seat waits this round/);
    const done = unwrap(await h.host.done('c-fail', ALICE));
    assert.ok(done.closed, 'round closed once alice was done');
    assert.equal(done.match.state?.round, 1);
    await h.host.stop();
    assert.ok(m.id);
  });

  test('a judge timeout falls back to the rule judge and the match continues', async () => {
    emu.setResponder(() => ({ hang: true }));
    const judge = createLlmJudge({ client: emuClient(emu, { maxRetries: 0 }), models: ['judge-m'], timeoutMs: 200 });
    const h = await harness({ judge });
    const seed = contestedSeed();
    const m = unwrap(await h.host.create('c-judge', 'test', HOST, { task: 'market_round', seed, roundSeconds: 0 }));
    unwrap(await h.host.join('c-judge', ALICE, 'lab_0'));
    unwrap(await h.host.join('c-judge', BOB, 'lab_1'));
    unwrap(await h.host.start('c-judge', HOST));
    const n0 = emu.chatRequests().length;
    for (const [who, lab] of [
      [ALICE, 'lab_0'],
      [BOB, 'lab_1'],
    ] as const) {
      const mine = honest(market(seed), lab);
      const pitch = unwrap(
        await h.host.act('c-judge', who, { action_type: 'make_pitch', message: mine.text, job_ids: mine.jobs }),
      );
      assert.equal(pitch.result.ok, true);
    }
    unwrap(await h.host.done('c-judge', BOB));
    const done = unwrap(await h.host.done('c-judge', ALICE));
    // The judge works off the lock: the last `done` answers at once, saying the round is being judged.
    assert.match(publicText(done.closed), /Round 1\/5 closed: the judge is deciding/);
    assert.equal(done.match.state?.round, 0);
    await h.host.idle();
    assert.equal(emu.chatRequests().length - n0, 2, 'the judge model was asked (in both orders)');
    const closed = (await closedRounds(h.store, m.id))[0]!;
    const decision = closed.judge as { judgeId: string; meta?: { fallback?: unknown } };
    assert.equal(decision.judgeId, RULE_JUDGE_ID);
    assert.match(String(decision.meta?.fallback), /timeout/);
    assert.match(publishedText(h), /Judged by the rule judge/);
    // the match continues: round 1 is open and alice can act
    assert.equal((await h.host.current('c-judge'))?.state?.round, 1);
    const next = unwrap(await h.host.act('c-judge', ALICE, { action_type: 'wait' }));
    assert.equal(next.result.ok, true);
    await h.host.stop();
  });

  test('replaying a match makes no LLM call (decisions come from the log)', async () => {
    const seed = contestedSeed();
    const theirs = honest(market(seed), 'lab_1');
    const mine = honest(market(seed), 'lab_0');
    // The model reads claims, not words: it tells the pitches apart by their job ids.
    const responder = (req: RecordedRequest) =>
      req.body?.model === 'judge-m'
        ? { content: verdictFor(req, (t) => (t.includes(`job ${theirs.jobs[0]}`) ? v(0.9) : v(0.3))) }
        : {
            content: JSON.stringify({ plan: null, actions: [], pitch: { message: theirs.text, job_ids: theirs.jobs } }),
          };
    emu.setResponder(responder);
    const client = emuClient(emu);
    const judge = createLlmJudge({ client, models: ['judge-m'] });
    const agentFor = llmAgentFactory(client);
    const h = await harness({ judge, agentFor });
    const m = unwrap(await h.host.create('c-replay', 'test', HOST, { task: 'market_round', seed, roundSeconds: 0 }));
    unwrap(await h.host.join('c-replay', ALICE, 'lab_0'));
    unwrap(await h.host.assign('c-replay', HOST, 'lab_1', { kind: 'llm', model: 'agent-m' }));
    unwrap(await h.host.start('c-replay', HOST));
    for (let round = 0; round < 2; round++) {
      await h.host.idle();
      unwrap(
        await h.host.act('c-replay', ALICE, {
          action_type: 'make_pitch',
          message: `${mine.text} (round ${round})`,
          job_ids: round === 0 ? mine.jobs : [],
        }),
      );
      unwrap(await h.host.done('c-replay', ALICE));
      await h.host.idle();
    }
    const closed = await closedRounds(h.store, m.id);
    assert.equal(closed.length, 2);
    assert.equal(
      (closed[0]!.judge as { judgeId: string }).judgeId,
      LLM_JUDGE_ID,
      'the model judged the contested round',
    );
    unwrap(await h.host.end('c-replay', HOST));
    const live = h.host.current('c-replay');
    await h.host.stop();
    assert.equal(await live, null);
    const calls = emu.chatRequests().length;

    const replayed = replay(await h.store.load(m.id));
    assert.ok(replayed?.state);
    assert.deepEqual(
      replayed.state.judgeHistory.map((d) => [d.judgeId, d.winner]),
      closed.map((c) => [(c.judge as { judgeId: string }).judgeId, (c.judge as { winner: string }).winner]),
    );
    // The model's rationales stay in the log; no seat's observation carries them.
    assert.match(JSON.stringify(closed), /scored Seat/);
    for (const lab of replayed.state.labIds)
      assert.doesNotMatch(JSON.stringify(observe(replayed.state, lab)), /scored Seat|rationale/);
    // a fresh host over the same store, with the same judge and agents, restores without asking anyone
    const host2 = new RoundHost({ store: h.store, judge, agentFor, clock: h.clock, publish: async () => {} });
    await host2.restore();
    await host2.idle();
    await host2.stop();
    assert.equal(emu.chatRequests().length, calls, 'no LLM call during replay or restore');
  });
});
