import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ActionInput } from '../../src/engine/actions.js';
import type { JudgeDecision, MatchState } from '../../src/engine/types.js';
import { ruleJudge } from '../../src/engine/judge/rule-judge.js';
import { sleep, type SeatAgent, type SeatDriver } from '../../src/host/index.js';
import { ruleDecision, stateForJudge } from '../../src/match/judging.js';
import { harness, person, publicText, publishedText, replayed, settle, unwrap, until } from './helpers.js';

const alice = person('alice');
const bob = person('bob');

/** Both people pitch their own jobs, alice says done; bob's done is the caller's to send. */
async function pitchRound(h: Awaited<ReturnType<typeof harness>>, ch: string, state: MatchState) {
  for (const [p, lab] of [
    [alice, 'lab_0'],
    [bob, 'lab_1'],
  ] as const) {
    const jobs = Object.values(state.jobs).filter((j) => j.owner === lab);
    const msg = `We need ${jobs[0]?.gpuHoursRequired} GPU-hours for ${jobs[0]?.id} before its deadline.`;
    unwrap(await h.host.act(ch, p, { action_type: 'make_pitch', message: msg, job_ids: jobs.map((j) => j.id) }));
  }
  unwrap(await h.host.done(ch, alice));
}

describe('round host judge', () => {
  test('judge timeout → rule judge fallback, recorded in the event and said in the post', async () => {
    let called!: () => void;
    const judgeCalled = new Promise<void>((r) => (called = r));
    let aborted = false;
    const slow = {
      id: 'slow-llm',
      judge: (_s: MatchState, signal?: AbortSignal) =>
        new Promise<JudgeDecision | null>(() => {
          called();
          signal?.addEventListener('abort', () => (aborted = true));
        }),
    };
    const h = await harness({ judge: slow });
    unwrap(await h.host.create('j1', 'console', alice, { task: 'single_trade', seed: 5, roundSeconds: 0 }));
    unwrap(await h.host.join('j1', alice));
    unwrap(await h.host.join('j1', bob));
    const { match } = unwrap(await h.host.start('j1', alice));
    assert.ok(match.state);
    await pitchRound(h, 'j1', match.state);
    // The judge works off the match lock: bob's done answers at once and says the round is being judged.
    const closing = unwrap(await h.host.done('j1', bob)).closed;
    assert.match(publicText(closing), /Round 1\/3 closed: the judge is deciding/);
    await judgeCalled;
    // Meanwhile reads answer and say so; actions are refused with a clear message and change nothing.
    const during = await h.host.current('j1');
    assert.equal(during?.judging?.round, 0);
    const late = await h.host.act('j1', alice, { action_type: 'wait' });
    assert.equal(!late.ok && late.error.code, 'round_closed');
    assert.match(
      !late.ok ? late.error.message : '',
      /^Round 1 is closed and its pitches are with the judge, so nothing was recorded\. Round 2 opens as soon as the judge has decided: send it again then\.$/,
    );
    await h.clock.advance(19_999);
    assert.equal(
      (await h.store.load(match.id)).filter((e) => e.body.type === 'round_closed').length,
      0,
      'still judging',
    );
    await h.clock.advance(1);
    await h.host.idle();
    assert.ok(aborted, 'the slow judge was told to stop');
    assert.match(
      publishedText(h),
      /Judged by the rule judge: the configured judge was unavailable \(timeout after 20000 ms\)/,
    );
    const ev = (await h.store.load(match.id)).find((e) => e.body.type === 'round_closed');
    const decision = ev?.body.type === 'round_closed' ? (ev.body.judge as JudgeDecision) : null;
    assert.equal(decision?.meta?.['fallback'], 'timeout after 20000 ms');
    assert.equal(decision?.judgeId, ruleJudge.id);
    assert.ok(decision?.winner, 'both pitched: the rule judge picked a winner');
    await h.host.stop();
  });

  test("an async judge's decision is stored and replay uses it without calling any judge", async () => {
    let calls = 0;
    const llm = {
      id: 'fake-llm',
      judge: async (s: MatchState): Promise<JudgeDecision | null> => {
        calls++;
        const d = ruleJudge.judge(s);
        return d && { ...d, judgeId: 'fake-llm', winner: 'lab_1', bonus: 0.15 };
      },
    };
    const h = await harness({ judge: llm });
    unwrap(await h.host.create('j2', 'console', alice, { task: 'single_trade', seed: 6, roundSeconds: 0 }));
    unwrap(await h.host.join('j2', alice));
    unwrap(await h.host.join('j2', bob));
    const { match } = unwrap(await h.host.start('j2', alice));
    assert.ok(match.state);
    await pitchRound(h, 'j2', match.state);
    unwrap(await h.host.done('j2', bob));
    await h.host.idle();
    const closed = (await h.host.current('j2'))!;
    assert.equal(calls, 1);
    assert.equal(closed.lastJudge?.judgeId, 'fake-llm');
    assert.equal(closed.state?.judgeHistory.at(-1)?.winner, 'lab_1');
    assert.match(publishedText(h), /Winner: Lab B \(bonus \+0\.150, held until the jobs its pitch argued for settle/);
    const fromLog = await replayed(h.store, match.id);
    assert.equal(calls, 1, 'replay did not call the judge');
    assert.equal(JSON.stringify(fromLog), JSON.stringify(closed));
    await h.host.stop();
  });

  test('the state the async judge sees is the engine’s post-scripted-turn state', async () => {
    const h = await harness();
    for (const [i, task] of (['single_trade', 'market_round', 'coalition_market'] as const).entries()) {
      unwrap(await h.host.create(`s${i}`, 'console', alice, { task, seed: 30 + i, roundSeconds: 0 }));
      unwrap(await h.host.join(`s${i}`, alice));
      let m = unwrap(await h.host.start(`s${i}`, alice)).match;
      while (m.phase === 'running' && m.state) {
        assert.deepEqual(ruleJudge.judge(stateForJudge(m.state)), ruleDecision(m.state));
        const d = unwrap(await h.host.done(`s${i}`, alice));
        m = d.match;
      }
    }
    await h.host.stop();
  });
});

describe('round host agent seats', () => {
  test('agent seats are asked in parallel; a failing agent waits and the match goes on', async () => {
    const trace: string[] = [];
    const h0 = { clock: undefined as unknown as import('../../src/host/index.js').Clock };
    const delays: Record<string, number> = { lab_1: 3_000, lab_2: 1_000 };
    const agentFor = (d: SeatDriver): SeatAgent | null => {
      if (d.kind !== 'llm') return null;
      if (d.model === 'broken') return { act: async () => Promise.reject(new Error('model exploded')) };
      if (d.model === 'hang') return { act: () => new Promise<ActionInput[]>(() => {}) };
      return {
        act: async (obs, ctx) => {
          trace.push(`start ${ctx.lab} r${ctx.round}`);
          await sleep(h0.clock, delays[ctx.lab] ?? 0, ctx.signal);
          trace.push(`end ${ctx.lab} r${ctx.round}`);
          return [{ action_type: 'send_message', message: `hello from ${obs.self.publicName} in round ${ctx.round}` }];
        },
      };
    };
    const h = await harness({ agentFor, agentTimeoutMs: 10_000 });
    h0.clock = h.clock;
    unwrap(await h.host.create('a1', 'console', alice, { task: 'coalition_market', seed: 2, roundSeconds: 0 }));
    unwrap(await h.host.join('a1', alice, 'lab_0'));
    unwrap(await h.host.assign('a1', alice, 'lab_1', { kind: 'llm', model: 'fake' }));
    unwrap(await h.host.assign('a1', alice, 'lab_2', { kind: 'llm', model: 'fake' }));
    unwrap(await h.host.assign('a1', alice, 'lab_3', { kind: 'llm', model: 'broken' }));
    const { match } = unwrap(await h.host.start('a1', alice));
    await settle();
    assert.deepEqual(trace.sort(), ['start lab_1 r0', 'start lab_2 r0'], 'both asked before either answered');
    await h.clock.advance(3_000);
    await h.host.idle();
    assert.deepEqual(trace.slice(2), ['end lab_2 r0', 'end lab_1 r0']);
    let m = await h.host.current('a1');
    assert.deepEqual([...(m?.done ?? [])].sort(), ['lab_1', 'lab_2', 'lab_3']);
    const text = publishedText(h);
    // A model's name is untrusted text: marked as such (src/chat/player-text.ts).
    assert.match(
      text,
      /Lab D \(.*LLM: \uE000broken\uE001\) could not act \(agent error: Error\); the seat waits this round/u,
    );
    assert.ok(!text.includes('model exploded'), 'the error message (which may quote model text) is not public');
    // The agent's turn in words: its public message quoted (no bare action names).
    assert.match(
      text,
      /Lab B \(.*LLM: \uE000fake\uE001\) acted:\n• said: “[\uE000]?hello from Lab B in round 0[\uE001]?”\nIt is done for the round\./u,
    );
    assert.ok(!/acted: send_message/.test(text), 'no bare action names');
    const events = await h.store.load(match.id);
    assert.equal(events.filter((e) => e.body.type === 'action' && e.body.userId === 'llm:fake').length, 2);

    const closed = unwrap(await h.host.done('a1', alice));
    assert.ok(closed.closed, 'the person was the last one: the round closes');
    await settle();
    assert.ok(trace.includes('start lab_1 r1') && trace.includes('start lab_2 r1'), 'agents asked again in round 2');
    m = await h.host.current('a1');
    assert.equal(m?.state?.round, 1);
    await h.host.stop();
  });

  test('a hanging agent times out and an all-agent round closes by itself', async () => {
    const agentFor = (d: SeatDriver): SeatAgent | null =>
      d.kind === 'llm' ? { act: () => new Promise<ActionInput[]>(() => {}) } : null;
    const h = await harness({ agentFor, agentTimeoutMs: 5_000 });
    unwrap(await h.host.create('a2', 'console', alice, { task: 'single_trade', seed: 9, roundSeconds: 0 }));
    unwrap(await h.host.assign('a2', alice, 'lab_0', { kind: 'llm', model: 'hang' }));
    unwrap(await h.host.start('a2', alice));
    await h.clock.advance(4_999);
    assert.equal((await h.host.current('a2'))?.state?.round, 0);
    await h.clock.advance(1);
    // idle() would wait for the next round's agent, which waits for fake time: wait for the posts instead.
    await until(() => /Round 1\/3 closed/.test(publishedText(h)));
    await h.clock.advance(5_000);
    await until(() => /Round 2\/3 closed/.test(publishedText(h)));
    await h.clock.advance(5_000);
    await until(() => /Match over/.test(publishedText(h)));
    const text = publishedText(h);
    assert.match(text, /could not act \(no answer within 5 s\)/);
    assert.match(text, /Match over: final leaderboard/, 'three rounds closed without anyone: never stalled');
    await h.host.stop();
  });
});
