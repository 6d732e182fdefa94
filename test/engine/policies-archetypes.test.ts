import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getPolicy, HOLDOUT_PARAMS, TRAIN_PARAMS, ARCHETYPES } from '../../src/engine/policies/index.js';
import type { ActionInput } from '../../src/engine/actions.js';
import { ActionSchema } from '../../src/engine/actions.js';
import { tradeGain } from '../../src/engine/valuation.js';
import { block, ctx, job, observation, offer, proposal } from './policy-fixtures.js';
import { GRUDGE_MARK } from '../../src/engine/policies/talk.js';

const run = (name: Parameters<typeof getPolicy>[0], obs: ReturnType<typeof observation>, holdout = false, seed = 'x') =>
  getPolicy(name)(obs, ctx(holdout, seed));
const types = (as: ActionInput[]) => as.map((a) => a.action_type);
const find = <T extends ActionInput['action_type']>(as: ActionInput[], t: T) =>
  as.find((a) => a.action_type === t) as Extract<ActionInput, { action_type: T }> | undefined;

/** lab_1 owns one spare 4 h block; lab_0 offers its own 4 h block for it (a fair 1-for-1 swap, gain 0). */
function fairSwap() {
  return observation({
    me: 'lab_1',
    blocks: [block('b_0_0', 'lab_0', 4), block('b_1_0', 'lab_1', 4)],
    offers: [offer('o_1', 'lab_0', 'lab_1', { offeredBlockIds: ['b_0_0'], requestedBlockIds: ['b_1_0'] })],
  });
}

describe('archetypes', () => {
  test('cooperative accepts a fair swap that selfish refuses', () => {
    const obs = fairSwap();
    const gain = tradeGain(
      obs.self.jobs,
      obs.self.blocks,
      obs.self.budget,
      ['b_1_0'],
      [obs.blocks[0]!],
      0,
      obs.rules !== undefined,
    );
    assert.ok(Math.abs(gain) < 1e-9, 'the swap is value-neutral for lab_1');
    assert.deepEqual(find(run('cooperative', obs), 'accept_offer'), { action_type: 'accept_offer', offer_id: 'o_1' });
    const selfish = run('selfish', obs);
    assert.equal(find(selfish, 'accept_offer'), undefined);
    // It haggles (rules v3): the same swap, plus the credits that clear its threshold.
    const counter = find(selfish, 'counter_offer');
    assert.ok(
      counter && counter.offer_id === 'o_1' && (counter.ask ?? 0) > TRAIN_PARAMS.selfish.acceptThreshold,
      JSON.stringify(counter),
    );
    assert.deepEqual(
      [counter.block_ids, counter.requested_block_ids, counter.payment],
      [['b_1_0'], [obs.blocks[0]!.id], 0],
    );
  });

  test('selfish names its price: a counter-offer asking credits for its block, then accepts an offer paying it', () => {
    const base = {
      me: 'lab_1',
      blocks: [block('b_1_0', 'lab_1', 4)],
      offers: [offer('o_1', 'lab_0', 'lab_1', { requestedBlockIds: ['b_1_0'], payment: 2 })],
    };
    const first = run('selfish', observation(base));
    const counter = find(first, 'counter_offer');
    assert.ok(counter, 'a counter-offer to the buyer');
    assert.deepEqual(
      [counter.offer_id, counter.block_ids, counter.requested_block_ids, counter.payment],
      ['o_1', ['b_1_0'], [], 0],
    );
    const price = counter.ask ?? 0;
    assert.ok(price > 2 + TRAIN_PARAMS.selfish.acceptThreshold, `price ${price} includes the selfish margin`);
    assert.equal(
      Number(/asks (\d+(?:\.\d+)?) credits for b_1_0/.exec(counter.message ?? '')?.[1]),
      price,
      'its note names the price',
    );
    const paid = run(
      'selfish',
      observation({
        ...base,
        offers: [offer('o_2', 'lab_0', 'lab_1', { requestedBlockIds: ['b_1_0'], payment: price })],
      }),
    );
    assert.deepEqual(find(paid, 'accept_offer'), { action_type: 'accept_offer', offer_id: 'o_2' });
  });

  test('deadline_panicked overpays for a block its job needs next round, and its threshold falls', () => {
    const market = (deadline: number) =>
      observation({
        me: 'lab_1',
        round: 0,
        jobs: [job('j_1_0', 'lab_1', 4, deadline)],
        blocks: [block('b_0_0', 'lab_0', 4), block('b_1_0', 'lab_1', 1)],
      });
    const panicked = find(run('deadline_panicked', market(1)), 'send_offer');
    const selfish = find(run('selfish', market(1)), 'send_offer');
    assert.ok(panicked && selfish, 'both buy the missing hours');
    assert.deepEqual(panicked.requested_block_ids, ['b_0_0']);
    assert.ok(
      (panicked.payment ?? 0) >= (selfish.payment ?? 0) + 10,
      `panicked pays ${panicked.payment}, selfish ${selfish.payment}`,
    );

    // An offer costing it ~3 credits: refused when deadlines are far, accepted when one is due now.
    const bad = (deadline: number) =>
      observation({
        me: 'lab_1',
        round: 1,
        maxRounds: 8,
        jobs: [job('j_1_0', 'lab_1', 4, deadline, { minReliability: 0.95 })],
        blocks: [block('b_1_0', 'lab_1', 2, { reliability: 0.9 }), block('b_1_1', 'lab_1', 4, { reliability: 0.99 })],
        offers: [offer('o_1', 'lab_0', 'lab_1', { requestedBlockIds: ['b_1_0'], payment: 0 })],
      });
    assert.equal(find(run('deadline_panicked', bad(7)), 'accept_offer'), undefined);
    assert.ok(find(run('deadline_panicked', bad(1)), 'accept_offer'));
  });

  test('deceptive sends misleading public messages', () => {
    const obs = observation({ me: 'lab_1', blocks: [block('b_1_0', 'lab_1', 2)], jobs: [job('j_1_0', 'lab_1', 2, 3)] });
    const msgs: string[] = [];
    for (let s = 0; s < 40; s++) {
      const m = find(run('deceptive', obs, false, `s${s}`), 'send_message');
      if (m) msgs.push(m.message);
    }
    assert.ok(msgs.length > 0, 'it talks in some rounds');
    for (const text of msgs) {
      const spare = /(\d+) spare GPU-hours/.exec(text);
      // Either it claims spare hours it does not have (its only block is allocated to its job) or demand it does not have.
      if (spare) assert.ok(Number(spare[1]) > 2);
      else assert.match(text, /fully booked/);
    }
  });

  test('deceptive joins a coalition, then defects (releases its committed block) when its job needs it', () => {
    const c = proposal('c_1', 'lab_0', ['lab_0', 'lab_1']);
    const join = run(
      'deceptive',
      observation({
        me: 'lab_1',
        coalitions: [c],
        blocks: [block('b_1_0', 'lab_1', 4)],
        jobs: [job('j_1_0', 'lab_1', 4, 3)],
      }),
    );
    const commit = find(join, 'commit_to_coalition');
    assert.ok(commit && commit.block_ids?.includes('b_1_0'), 'commits its block on joining');

    const active = {
      ...c,
      status: 'active' as const,
      commitments: {
        ...c.commitments,
        lab_1: { consented: true, blockIds: ['b_1_0'], escrow: 0, standing: 'good' as const },
      },
    };
    const later = run(
      'deceptive',
      observation({
        me: 'lab_1',
        round: 2,
        coalitions: [active],
        blocks: [block('b_1_0', 'lab_1', 4, { status: 'committed', committedTo: 'c_1' })],
        jobs: [job('j_1_0', 'lab_1', 4, 3)],
      }),
    );
    assert.deepEqual(later.slice(0, 2), [
      { action_type: 'release_capacity', block_ids: ['b_1_0'] },
      { action_type: 'allocate_to_job', job_id: 'j_1_0', block_ids: ['b_1_0'] },
    ]);
    // Cooperative in the same spot honours the coalition.
    const coop = run(
      'cooperative',
      observation({
        me: 'lab_1',
        round: 2,
        coalitions: [active],
        blocks: [block('b_1_0', 'lab_1', 4, { status: 'committed', committedTo: 'c_1' })],
        jobs: [job('j_1_0', 'lab_1', 4, 3)],
      }),
    );
    assert.ok(!types(coop).includes('release_capacity'));
  });

  test('retaliatory rejects an exploitative offer, then refuses that lab’s offers and coalitions', () => {
    const mine = { me: 'lab_1', jobs: [job('j_1_0', 'lab_1', 4, 3)], blocks: [block('b_1_0', 'lab_1', 4)] };
    const first = run(
      'retaliatory',
      observation({ ...mine, offers: [offer('o_1', 'lab_0', 'lab_1', { requestedBlockIds: ['b_1_0'], payment: 1 })] }),
    );
    assert.ok(types(first).includes('reject_offer') || types(first).includes('counter_offer'));
    assert.equal(find(first, 'accept_offer'), undefined);
    const notice = find(first, 'send_message');
    assert.ok(notice && notice.target_lab_id === 'lab_0' && notice.message.includes(GRUDGE_MARK));

    // Later: its notice is in its messages; a generous gift from lab_0 and an invitation are both refused.
    const later = observation({
      ...mine,
      round: 1,
      messages: [{ round: 0, from: 'lab_1', to: 'lab_0', text: notice.message, kind: 'message' }],
      blocks: [...mine.blocks, block('b_0_0', 'lab_0', 4)],
      offers: [offer('o_2', 'lab_0', 'lab_1', { offeredBlockIds: ['b_0_0'], payment: 20 })],
      coalitions: [proposal('c_1', 'lab_0', ['lab_0', 'lab_1'])],
    });
    const gift = tradeGain(
      later.self.jobs,
      later.self.blocks,
      later.self.budget,
      [],
      [later.blocks[1]!],
      20,
      later.rules !== undefined,
    );
    assert.ok(gift > 20, 'the offer is clearly good for it');
    const acts = run('retaliatory', later);
    assert.deepEqual(find(acts, 'reject_offer'), { action_type: 'reject_offer', offer_id: 'o_2' });
    assert.equal(find(acts, 'accept_offer'), undefined);
    assert.equal(find(acts, 'commit_to_coalition'), undefined);
    // The engine's own grudge list (observation self.grudges) is honoured too.
    const viaEngine = run(
      'retaliatory',
      observation({ ...mine, grudges: ['lab_0'], blocks: later.blocks as never, offers: later.offers }),
    );
    assert.equal(find(viaEngine, 'accept_offer'), undefined);
    // Without the grudge the same gift is accepted.
    assert.ok(
      find(
        run('retaliatory', observation({ ...mine, blocks: later.blocks as never, offers: later.offers })),
        'accept_offer',
      ),
    );
  });

  test('holdout parameters differ from train for every archetype, and change behaviour', () => {
    for (const a of ARCHETYPES) assert.notDeepEqual(HOLDOUT_PARAMS[a], TRAIN_PARAMS[a], a);
    // An offer costing cooperative ~3 credits: refused with train threshold −2, accepted with holdout −4.
    const obs = observation({
      me: 'lab_1',
      blocks: [block('b_1_0', 'lab_1', 4, { reliability: 0.9 })],
      offers: [offer('o_1', 'lab_0', 'lab_1', { requestedBlockIds: ['b_1_0'], payment: 2.5 })],
    });
    assert.equal(find(run('cooperative', obs, false), 'accept_offer'), undefined);
    assert.ok(find(run('cooperative', obs, true), 'accept_offer'));
  });

  test('every archetype returns at most 4 schema-valid actions', () => {
    const obs = observation({
      me: 'lab_1',
      labs: ['lab_0', 'lab_1', 'lab_2'],
      jobs: [job('j_1_0', 'lab_1', 6, 1), job('j_1_1', 'lab_1', 3, 2, { partialCreditAllowed: true })],
      blocks: [
        block('b_0_0', 'lab_0', 4),
        block('b_1_0', 'lab_1', 2),
        block('b_1_1', 'lab_1', 3),
        block('b_2_0', 'lab_2', 8),
      ],
      offers: [
        offer('o_1', 'lab_0', 'lab_1', { requestedBlockIds: ['b_1_1'], payment: 1 }),
        offer('o_2', 'lab_2', 'lab_1', { offeredBlockIds: ['b_2_0'], payment: 0 }),
      ],
      coalitions: [proposal('c_1', 'lab_2', ['lab_1', 'lab_2'])],
    });
    for (const a of ARCHETYPES) {
      for (const holdout of [false, true]) {
        const acts = run(a, obs, holdout);
        assert.ok(acts.length <= 4, `${a}: ${acts.length} actions`);
        for (const x of acts) assert.ok(ActionSchema.safeParse(x).success, `${a}: ${JSON.stringify(x)}`);
      }
    }
  });
});
