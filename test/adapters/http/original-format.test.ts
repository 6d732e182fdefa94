/**
 * `compat: "original"`: every observation of all three tasks (reset, then steps with each of the
 * original's 14 action types in its field names, then to the end) parses with the strict schema written
 * from the contract (original-contract.ts), `/state` parses as its public state, and the reward columns
 * are the native answer's under the original's names: same values, same sums. The native format of a
 * session on the same server is unchanged.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REWARD_COLUMNS } from '../../../src/engine/index.js';
import { TASK_NAMES } from '../../../src/engine/types.js';
import { mustParse, Observation, PublicState } from './original-contract.js';
import { ok, startServer, type Harness } from './harness.js';

let h: Harness;
before(async () => {
  h = await startServer({ compat: 'original' });
});
after(async () => {
  await h.close();
});

type Obs = ReturnType<typeof Observation.parse>;
type Body = Record<string, unknown>;
const post = (path: string, body: unknown) => h.client.request<Body>('POST', path, body);

/** An action of `type` in the original's field names, aimed at real ids of `o` where it can be. */
function actionOf(type: string, o: Obs): Body {
  const me = o.controlled_lab_id;
  const other = o.visible_labs[0]!;
  const free = o.owned_blocks.filter((b) => b.status === 'available');
  const reserved = o.owned_blocks.find((b) => b.status === 'reserved');
  const job = o.private_jobs.find((j) => !j.completed) ?? o.private_jobs[0]!;
  const incoming = o.active_offers.filter((x) => x.to_lab_id === me);
  const fit = free.find((b) => b.reliability >= job.min_reliability) ?? free[0];
  switch (type) {
    case 'send_offer':
      return {
        action_type: type,
        target_lab_id: other.lab_id,
        block_ids: free.slice(0, 1).map((b) => b.block_id),
        requested_block_ids: other.owned_block_ids.slice(0, 1),
        payment: 1,
        message: 'swap for mutual benefit?',
        conditions: null,
      };
    case 'accept_offer':
      return { action_type: type, offer_id: incoming[0]?.offer_id ?? 'o_999' };
    case 'reject_offer':
      return { action_type: type, offer_id: incoming.at(-1)?.offer_id ?? 'o_998' };
    case 'counter_offer':
      return {
        action_type: type,
        offer_id: incoming[0]?.offer_id ?? 'o_997',
        block_ids: free.slice(-1).map((b) => b.block_id),
        payment: 0.5,
        message: 'a fairer split',
      };
    case 'make_pitch':
      return {
        action_type: type,
        job_id: job.job_id,
        message: `${job.job_id} needs ${job.gpu_hours_required} GPU-hours before its deadline round ${job.deadline_round}`,
      };
    case 'counter_pitch':
      return { action_type: type, target_lab_id: other.lab_id, message: 'our need is concrete and verifiable' };
    case 'reserve_capacity':
      return { action_type: type, block_ids: free.slice(0, 1).map((b) => b.block_id), job_id: job.job_id };
    case 'release_capacity':
      return { action_type: type, block_ids: [(reserved ?? free[0])!.block_id] };
    case 'form_coalition':
      return {
        action_type: type,
        target_lab_id: other.lab_id,
        message: 'coalition to share capacity for urgent deadlines',
      };
    case 'commit_to_coalition':
      return {
        action_type: type,
        coalition_id: o.active_coalitions[0]?.coalition_id ?? 'c_1',
        block_ids: free.slice(-1).map((b) => b.block_id),
      };
    case 'allocate_to_job':
      return { action_type: type, job_id: job.job_id, block_ids: fit ? [fit.block_id] : [] };
    case 'send_message':
      return { action_type: type, target_lab_id: null, message: 'urgent: deadline asap, anyone selling?' };
    default:
      return { action_type: type };
  }
}

const ORIGINAL_ACTIONS = [
  'send_message',
  'send_offer',
  'reserve_capacity',
  'release_capacity',
  'make_pitch',
  'counter_pitch',
  'form_coalition',
  'commit_to_coalition',
  'accept_offer',
  'reject_offer',
  'counter_offer',
  'allocate_to_job',
  'wait',
  'finish',
];

const renamed = (native: Record<string, number>): Record<string, number> =>
  Object.fromEntries(
    [...REWARD_COLUMNS, 'normalized_reward'].map((c) => [
      /_penalty$|^normalized_reward$/.test(c) ? c : `${c}_score`,
      native[c]!,
    ]),
  );

describe('compat original: observations', () => {
  test('a /step before any /reset auto-resets with the defaults, as the original did', async () => {
    const r = ok(await post('/step', { action_type: 'wait' }));
    const o = mustParse(Observation, r.observation, 'first step');
    assert.deepEqual([o.task_id, o.round_index, o.last_action_result?.code], ['single_trade-42', 1, 'waited']);
  });

  for (const task of TASK_NAMES) {
    test(`${task}: reset, all 14 action types and the rest of the episode parse with the contract's strict schema; rewards as native`, async () => {
      const seed = 31;
      const reset = { task_type: task, seed, actions_per_round: 12, new_session: true };
      const orig = ok(await post('/reset', reset));
      const nat = ok(await post('/reset', { ...reset, observation_format: 'native' }));
      let o = mustParse(Observation, orig.observation, `${task} reset`);
      assert.equal(o.task_id, `${task}-${seed}`);
      assert.equal(o.last_action_result, null);
      const n0 = nat.observation as {
        self: { jobs: { id: string }[]; budget: number };
        labs: { id: string }[];
        task_id: string;
      };
      assert.equal(n0.task_id, `${task}-${seed}`, 'the native format is unchanged: ours plus the top-level aliases');
      assert.deepEqual(
        o.private_jobs.map((j) => j.job_id),
        n0.self.jobs.map((j) => j.id),
      );
      assert.deepEqual(
        o.visible_labs.map((l) => l.lab_id),
        n0.labs.map((l) => l.id),
      );
      assert.equal(o.controlled_lab_budget, n0.self.budget);
      const state0 = ok(
        await h.client.request<{ state: unknown }>('GET', `/state?session_id=${orig.session_id as string}`),
      );
      const pub = mustParse(PublicState, state0.state, `${task} /state`);
      assert.equal(pub.seed, seed);
      assert.ok(!('labs' in (state0.state as object)));

      const codes: string[] = [];
      let total = 0;
      const plan = [...ORIGINAL_ACTIONS];
      for (let i = 0; !o.done && i < 40; i++) {
        const action = plan.shift() ?? { action_type: 'wait' };
        const body = typeof action === 'string' ? actionOf(action, o) : action;
        const r = ok(await post('/step', { session_id: orig.session_id, ...body }));
        const rn = ok(await post('/step', { session_id: nat.session_id, ...body }));
        o = mustParse(Observation, r.observation, `${task} step ${i} (${String(body.action_type)})`);
        const info = rn.info as { code: string; reward_breakdown: Record<string, number> };
        assert.equal(o.last_action_result?.code, info.code, `step ${i}: the same code in both formats`);
        assert.deepEqual(
          o.reward_breakdown,
          renamed(info.reward_breakdown),
          `step ${i}: the columns under their _score names`,
        );
        assert.equal(o.reward, rn.reward);
        assert.equal(o.reward, o.reward_breakdown.normalized_reward);
        assert.equal(r.reward, rn.reward, 'the extra top-level reward is the native one');
        total += o.reward;
        codes.push(info.code);
      }
      assert.equal(o.done, true, `${task}: the episode ended (${codes.join(',')})`);
      assert.ok(
        Math.abs(total - o.cumulative_reward) < 1e-9,
        `${task}: the rewards add up to cumulative_reward (${total} vs ${o.cumulative_reward})`,
      );
      assert.ok(
        codes.includes('offer_created') && codes.includes('message_sent') && codes.includes('pitch_recorded'),
        codes.join(','),
      );
      assert.equal(codes.includes('malformed_action'), false, codes.join(','));
      const end = ok(
        await h.client.request<{ state: unknown }>('GET', `/state?session_id=${orig.session_id as string}`),
      );
      assert.equal(mustParse(PublicState, end.state, `${task} final /state`).done, true);
    });
  }

  test('a message signal, an offer and the market read as in the original', async () => {
    const r = ok(await post('/reset', { task_type: 'market_round', seed: 4, actions_per_round: 4, new_session: true }));
    const sid = r.session_id as string;
    let o = mustParse(Observation, r.observation, 'reset');
    const target = o.visible_labs[0]!;
    const offer = ok(await post('/step', { session_id: sid, ...actionOf('send_offer', o) }));
    o = mustParse(Observation, offer.observation, 'offer');
    const mine = o.active_offers.find((x) => x.from_lab_id === o.controlled_lab_id)!;
    assert.deepEqual(
      [mine.to_lab_id, mine.payment, mine.message, mine.status, mine.conditions],
      [target.lab_id, 1, 'swap for mutual benefit?', 'active', {}],
    );
    assert.ok(o.visible_labs.find((l) => l.lab_id === target.lab_id)!.active_offer_count >= 1);
    const msg = ok(
      await post('/step', { session_id: sid, action_type: 'send_message', message: 'we never forget; we retaliate' }),
    );
    o = mustParse(Observation, msg.observation, 'message');
    assert.equal(o.message_history.at(-1)!.signal, 'threat');
    assert.deepEqual(
      o.public_market.available_blocks.map((b) => b.block_id).sort(),
      o.public_market.available_blocks
        .filter((b) => ['available', 'reserved', 'committed'].includes(b.status))
        .map((b) => b.block_id)
        .sort(),
    );
    assert.ok(
      o.public_market.available_blocks.some((b) => b.owner_lab_id !== o.controlled_lab_id),
      "every lab's live blocks",
    );
    assert.ok(
      o.public_market.available_blocks
        .filter((b) => b.owner_lab_id !== o.controlled_lab_id)
        .every((b) => b.reserved_by === null && b.allocated_to_job_id === null),
      "another lab's reservation target is private",
    );
  });
});
