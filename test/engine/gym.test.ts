import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ArenaEnv, defaultOpponents } from '../../src/engine/gym.js';
import { labIdsFor, rng } from '../../src/engine/index.js';
import { getPolicy, ARCHETYPES } from '../../src/engine/policies/index.js';
import { TASK_NAMES } from '../../src/engine/types.js';

describe('ArenaEnv', () => {
  test('every task runs to done within max rounds; one step = one action + a round close', () => {
    for (const task of TASK_NAMES) {
      for (const seed of [0, 7]) {
        const env = new ArenaEnv();
        const obs = env.reset({ task, seed });
        assert.equal(obs.self.id, 'lab_0');
        assert.equal(obs.round, 0);
        let steps = 0;
        let last = null;
        while (!env.done) {
          last = env.step({ action_type: 'send_message', message: `round ${steps}` });
          assert.ok(last.info.closed);
          steps++;
          assert.equal(last.info.round, steps);
          assert.ok(steps <= obs.maxRounds, 'no more steps than rounds');
        }
        assert.equal(steps, obs.maxRounds);
        assert.ok(last?.done && last.observation.over);
      }
    }
  });

  test('Σ step rewards equals the seat’s cumulative reward (random valid-ish play)', () => {
    for (const task of TASK_NAMES) {
      for (const seed of [1, 2, 3]) {
        const env = new ArenaEnv();
        let obs = env.reset({ task, seed });
        let sum = 0;
        let any = false;
        while (!env.done) {
          const action = getPolicy('random_validish')(obs, {
            rng: rng(seed, obs.round, 'policy:lab_0'),
            holdout: false,
          })[0] ?? { action_type: 'wait' };
          const r = env.step(action);
          sum += r.reward;
          any ||= r.reward !== 0;
          assert.equal(r.reward, r.breakdown.normalized_reward);
          obs = r.observation;
        }
        assert.ok(any);
        assert.ok(
          Math.abs(sum - env.state.seats.lab_0!.cumulativeReward) < 1e-6,
          `${task}/${seed}: ${sum} vs ${env.state.seats.lab_0!.cumulativeReward}`,
        );
      }
    }
  });

  test('actionsPerRound > 1 keeps the round open; wait closes it at once; endRound closes without an action', () => {
    const env = new ArenaEnv();
    env.reset({ task: 'market_round', seed: 3, actionsPerRound: 3 });
    const a = env.step({ action_type: 'send_message', message: 'hello market' });
    assert.equal(a.info.closed, false);
    assert.equal(a.info.round, 0);
    const b = env.step({ action_type: 'wait' });
    assert.equal(b.info.closed, true);
    assert.equal(b.info.round, 1);
    assert.ok(b.info.report);
    const c = env.endRound();
    assert.equal(c.info.code, 'round_closed');
    assert.equal(c.info.round, 2);
  });

  test('bad input is a penalised step, never an exception', () => {
    const env = new ArenaEnv();
    env.reset({ task: 'single_trade', seed: 0 });
    const r = env.step('{not json');
    assert.equal(r.info.ok, false);
    assert.equal(r.info.code, 'malformed_action');
    assert.ok(r.breakdown.invalid_action_penalty < 0);
    assert.equal(r.info.invalidActions, 1);
    assert.throws(() => env.reset({ task: 'single_trade', seed: 0, seat: 'lab_9' }));
  });

  test('the controlled seat is configurable; the others are scripted', () => {
    const env = new ArenaEnv();
    const obs = env.reset({ task: 'market_round', seed: 4, seat: 'lab_1', holdout: true });
    assert.equal(obs.self.id, 'lab_1');
    const cfg = env.state.config;
    assert.equal(cfg.holdout, true);
    assert.equal(cfg.scripted.lab_1, undefined);
    assert.ok(cfg.scripted.lab_0 && cfg.scripted.lab_2);
    env.reset({ task: 'market_round', seed: 4, opponents: ['greedy_hoarder'] });
    assert.deepEqual(env.state.config.scripted, { lab_1: 'greedy_hoarder', lab_2: 'greedy_hoarder' });
  });

  test('finish ends the episode for the controlled seat', () => {
    const env = new ArenaEnv();
    env.reset({ task: 'coalition_market', seed: 5 });
    const r = env.step({ action_type: 'finish' });
    assert.equal(r.info.code, 'finished');
    assert.ok(r.done);
    assert.equal(env.endRound().info.code, 'match_over');
  });
});

describe('defaultOpponents', () => {
  test('archetypes in seat order, rotated by seed; retaliatory in every hard match', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      for (const task of TASK_NAMES) {
        const opp = defaultOpponents(task, seed, 'lab_0');
        const labs = labIdsFor(task, seed).filter((l) => l !== 'lab_0');
        assert.deepEqual(Object.keys(opp), labs);
        for (const a of Object.values(opp)) {
          assert.ok(ARCHETYPES.includes(a));
          seen.add(`${task}:${a}`);
        }
        if (task === 'coalition_market') assert.ok(Object.values(opp).includes('retaliatory'), `seed ${seed}`);
        assert.equal(opp.lab_1, ARCHETYPES[seed % 5], 'the first opponent follows the rotation');
      }
    }
    for (const task of TASK_NAMES)
      for (const a of ARCHETYPES) assert.ok(seen.has(`${task}:${a}`), `${a} meets lab_0 in ${task}`);
  });
});

describe('step info privacy', () => {
  test("the round report shows other seats' actions by type and code only, and only the seat's own reward", () => {
    let sawOthers = 0;
    for (let seed = 0; seed < 5; seed++) {
      const env = new ArenaEnv();
      env.reset({ task: 'market_round', seed });
      const others = env.state.labIds.filter((l) => l !== 'lab_0');
      const otherJobs = Object.values(env.state.jobs)
        .filter((j) => j.owner !== 'lab_0')
        .map((j) => j.id);
      for (let done = false; !done;) {
        const r = env.step({ action_type: 'wait' });
        done = r.done;
        const report = r.info.report!;
        assert.deepEqual(Object.keys(report.rewards), ['lab_0']);
        for (const a of report.scriptedActions.filter((x) => others.includes(x.lab))) {
          sawOthers += 1;
          assert.equal(a.message, '');
        }
        const text = JSON.stringify(report.scriptedActions);
        for (const id of otherJobs) assert.ok(!text.includes(id), `${id} in the step info`);
      }
    }
    assert.ok(sawOthers > 0, 'scripted seats acted');
  });
});
