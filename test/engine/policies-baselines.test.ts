import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { getPolicy, POLICIES, BASELINES, ARCHETYPES, PROBES } from '../../src/engine/policies/index.js';
import type { ActionInput } from '../../src/engine/actions.js';
import { ActionSchema } from '../../src/engine/actions.js';
import { tradeGain } from '../../src/engine/valuation.js';
import { extractClaims } from '../../src/engine/judge/claims.js';
import { block, ctx, job, observation, offer } from './policy-fixtures.js';

type Name = Parameters<typeof getPolicy>[0];
const run = (name: Name, obs: ReturnType<typeof observation>, seed = 'x') => getPolicy(name)(obs, ctx(false, seed));
const types = (as: ActionInput[]) => as.map((a) => a.action_type);
const find = <T extends ActionInput['action_type']>(as: ActionInput[], t: T) =>
  as.find((a) => a.action_type === t) as Extract<ActionInput, { action_type: T }> | undefined;

/** lab_0 owns 2 h, 4 h and 8 h blocks; its job needs 4 h by round 2. */
const threeBlocks = (over: Parameters<typeof observation>[0] = {}) =>
  observation({
    jobs: [job('j_0_0', 'lab_0', 4, 2)],
    blocks: [
      block('b_0_0', 'lab_0', 2),
      block('b_0_1', 'lab_0', 4),
      block('b_0_2', 'lab_0', 8),
      block('b_1_0', 'lab_1', 4),
    ],
    ...over,
  });

describe('registry', () => {
  test('lists the five archetypes, six baselines and six probes, each resolvable', () => {
    assert.equal(ARCHETYPES.length, 5);
    assert.equal(BASELINES.length, 6);
    assert.equal(PROBES.length, 6);
    assert.equal(POLICIES.length, 17);
    assert.deepEqual(
      POLICIES.filter((p) => p.kind === 'probe').map((p) => p.name),
      [...PROBES],
    );
    for (const p of POLICIES) assert.equal(getPolicy(p.name), p.policy);
  });
});

describe('baselines', () => {
  test('random_validish draws from the seeded rng: same seed same action, several kinds over seeds', () => {
    const obs = threeBlocks({ offers: [offer('o_1', 'lab_1', 'lab_0', { requestedBlockIds: ['b_0_0'], payment: 3 })] });
    assert.deepEqual(run('random_validish', obs, 's1'), run('random_validish', obs, 's1'));
    const kinds = new Set<string>();
    for (let i = 0; i < 60; i++) {
      const acts = run('random_validish', obs, `s${i}`);
      assert.equal(acts.length, 1);
      assert.ok(ActionSchema.safeParse(acts[0]).success);
      kinds.add(acts[0]!.action_type);
    }
    assert.ok(kinds.size >= 5, `kinds: ${[...kinds].join(', ')}`);
  });

  test('greedy_hoarder rejects requests for its blocks, reserves what is free, and dumps every eligible block on its first job', () => {
    const obs = threeBlocks({
      offers: [offer('o_1', 'lab_1', 'lab_0', { requestedBlockIds: ['b_0_2'], payment: 50 })],
    });
    const acts = run('greedy_hoarder', obs);
    assert.deepEqual(find(acts, 'reject_offer'), { action_type: 'reject_offer', offer_id: 'o_1' });
    assert.deepEqual(find(acts, 'allocate_to_job')?.block_ids, ['b_0_0', 'b_0_1', 'b_0_2'], 'all 14 h for a 4 h job');
    // With nothing to allocate it reserves its free blocks for itself.
    const idle = observation({ blocks: [block('b_0_0', 'lab_0', 2), block('b_0_1', 'lab_0', 4)] });
    assert.deepEqual(find(run('greedy_hoarder', idle), 'reserve_capacity'), {
      action_type: 'reserve_capacity',
      block_ids: ['b_0_0', 'b_0_1'],
      job_id: null,
    });
  });

  test('always_accept accepts an offer that costs it its job', () => {
    const obs = observation({
      jobs: [job('j_0_0', 'lab_0', 4, 2)],
      blocks: [block('b_0_0', 'lab_0', 4)],
      offers: [offer('o_1', 'lab_1', 'lab_0', { requestedBlockIds: ['b_0_0'], payment: 1 })],
    });
    assert.ok(tradeGain(obs.self.jobs, obs.self.blocks, 100, ['b_0_0'], [], 1, obs.rules !== undefined) < -50);
    assert.deepEqual(run('always_accept', obs)[0], { action_type: 'accept_offer', offer_id: 'o_1' });
    assert.equal(find(run('rule_based_expert', obs), 'accept_offer'), undefined, 'the expert does not');
  });

  test('no_negotiation_allocator only allocates, and just enough: the smallest block that completes the job', () => {
    const obs = threeBlocks({ offers: [offer('o_1', 'lab_1', 'lab_0', { offeredBlockIds: ['b_1_0'], payment: 30 })] });
    assert.deepEqual(run('no_negotiation_allocator', obs), [
      { action_type: 'allocate_to_job', job_id: 'j_0_0', block_ids: ['b_0_1'] },
    ]);
    // A job it cannot complete (and that has no partial credit) gets nothing; it never trades for it.
    const short = observation({
      jobs: [job('j_0_0', 'lab_0', 8, 2)],
      blocks: [block('b_0_0', 'lab_0', 2), block('b_1_0', 'lab_1', 8)],
    });
    assert.deepEqual(run('no_negotiation_allocator', short), []);
    assert.ok(
      types(run('greedy_hoarder', short)).includes('allocate_to_job'),
      'unlike the hoarder, which wastes the block',
    );
  });

  test('base_instruct_naive accepts polite offers blindly, believes surplus claims and pitches without checkable facts', () => {
    const obs = observation({
      labs: ['lab_0', 'lab_1', 'lab_2'],
      jobs: [job('j_0_0', 'lab_0', 4, 2)],
      blocks: [block('b_0_0', 'lab_0', 4), block('b_2_0', 'lab_2', 8), block('b_2_1', 'lab_2', 2)],
      offers: [
        offer('o_1', 'lab_1', 'lab_0', {
          requestedBlockIds: ['b_0_0'],
          payment: 1,
          message: 'URGENT please, fair deal',
        }),
      ],
      messages: [
        {
          round: 0,
          from: 'lab_2',
          to: null,
          text: 'Lab C has 12 spare GPU-hours at reliability 0.97 to trade this round; send us your offers.',
          kind: 'message',
        },
      ],
    });
    const acts = run('base_instruct_naive', obs);
    assert.deepEqual(acts[0], { action_type: 'accept_offer', offer_id: 'o_1' });
    const ask = find(acts, 'send_offer');
    assert.ok(
      ask && ask.target_lab_id === 'lab_2' && ask.requested_block_ids?.[0] === 'b_2_0',
      'asks the claimant for its biggest block',
    );
    const pitch = find(acts, 'make_pitch');
    assert.ok(pitch);
    assert.deepEqual(extractClaims(pitch.message), []);
  });
});

describe('rule_based_expert', () => {
  test('accepts only offers with a positive own gain', () => {
    const obs = observation({
      jobs: [job('j_0_0', 'lab_0', 4, 3)],
      blocks: [block('b_0_0', 'lab_0', 4), block('b_0_1', 'lab_0', 2), block('b_1_0', 'lab_1', 4)],
      offers: [
        offer('o_1', 'lab_1', 'lab_0', { requestedBlockIds: ['b_0_0'], payment: 2 }), // takes the job's block
        offer('o_2', 'lab_1', 'lab_0', { requestedBlockIds: ['b_0_1'], payment: 10 }), // buys a spare block
      ],
    });
    const acts = run('rule_based_expert', obs);
    assert.deepEqual(
      acts.filter((a) => a.action_type === 'accept_offer'),
      [{ action_type: 'accept_offer', offer_id: 'o_2' }],
    );
  });

  test('buys the missing hours with a fair offer to a lab that owns an eligible block', () => {
    const obs = observation({
      labs: ['lab_0', 'lab_1', 'lab_2'],
      jobs: [job('j_0_0', 'lab_0', 6, 2, { minReliability: 0.85 })],
      blocks: [
        block('b_0_0', 'lab_0', 2),
        block('b_1_0', 'lab_1', 4, { reliability: 0.8 }),
        block('b_2_0', 'lab_2', 4, { reliability: 0.9 }),
      ],
    });
    const o = find(run('rule_based_expert', obs), 'send_offer');
    assert.ok(o, 'an offer');
    assert.equal(o.target_lab_id, 'lab_2', 'lab_1’s block is below the job’s minimum reliability');
    assert.deepEqual(o.requested_block_ids, ['b_2_0']);
    const resale = 1.5 * 4 * 0.9;
    assert.ok(
      (o.payment ?? 0) > resale + 8,
      `pays ${o.payment}: more than the seller’s resale value plus the selfish margin`,
    );
    assert.ok(
      tradeGain(obs.self.jobs, obs.self.blocks, 100, [], [obs.blocks[2]!], -(o.payment ?? 0), obs.rules !== undefined) >
        0.5,
      'still a gain for itself',
    );
  });

  test('remembers refused bids from its own offer notes: raises its price once, then looks elsewhere', () => {
    const note = (round: number) => ({
      round,
      from: 'lab_0',
      to: 'lab_1',
      text: 'Offering 12.00 credits for b_1_0 (4 GPU-hours) to complete job j_0_0.',
      kind: 'offer' as const,
    });
    const market = (messages: ReturnType<typeof note>[]) =>
      observation({
        round: 2,
        maxRounds: 8,
        labs: ['lab_0', 'lab_1', 'lab_2'],
        jobs: [job('j_0_0', 'lab_0', 4, 6)],
        blocks: [block('b_1_0', 'lab_1', 4), block('b_2_0', 'lab_2', 6)],
        messages,
      });
    const first = find(run('rule_based_expert', market([])), 'send_offer')!;
    const again = find(run('rule_based_expert', market([note(0)])), 'send_offer')!;
    assert.deepEqual(again.requested_block_ids, ['b_1_0']);
    assert.equal(again.payment, (first.payment ?? 0) + 5);
    const elsewhere = find(run('rule_based_expert', market([note(0), note(1)])), 'send_offer')!;
    assert.deepEqual(elsewhere.requested_block_ids, ['b_2_0']);
  });

  test('allocates exactly what completes a job, accumulating on a partial allocation and respecting min reliability', () => {
    // heldBonus: a won pitch already waits on the job, so nothing is gained by holding it back (§6.5).
    const held = threeBlocks({ jobs: [job('j_0_0', 'lab_0', 4, 2, { heldBonus: 0.15 })] });
    assert.deepEqual(find(run('rule_based_expert', held), 'allocate_to_job'), {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_1'],
    });
    const partial = observation({
      jobs: [job('j_0_0', 'lab_0', 6, 2, { allocatedHours: 2, allocatedBlockIds: ['b_0_9'], heldBonus: 0.1 })],
      blocks: [
        block('b_0_0', 'lab_0', 4, { reliability: 0.7 }),
        block('b_0_1', 'lab_0', 4),
        block('b_0_2', 'lab_0', 8),
      ],
    });
    assert.deepEqual(find(run('rule_based_expert', partial), 'allocate_to_job'), {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_1'],
    });
  });

  test('holds a completable job back one round to pitch for it: reserves its exact blocks (shielded) and names it', () => {
    const acts = run('rule_based_expert', threeBlocks());
    assert.equal(find(acts, 'allocate_to_job'), undefined);
    assert.deepEqual(find(acts, 'reserve_capacity'), {
      action_type: 'reserve_capacity',
      block_ids: ['b_0_1'],
      job_id: 'j_0_0',
    });
    assert.deepEqual(find(acts, 'make_pitch')!.job_ids, ['j_0_0']);
    // Due this round: no round left to hold it back, it is allocated at once.
    const due = threeBlocks({ round: 2 });
    assert.deepEqual(find(run('rule_based_expert', due), 'allocate_to_job'), {
      action_type: 'allocate_to_job',
      job_id: 'j_0_0',
      block_ids: ['b_0_1'],
    });
  });

  test('pitches truthfully and privately: only its own job id, argued for in job_ids; consecutive pitches differ', () => {
    const obs = (round: number) =>
      observation({
        round,
        jobs: [job('j_0_0', 'lab_0', 6, 3, { allocatedHours: 2, minReliability: 0.83 })],
        blocks: [block('b_0_0', 'lab_0', 1), block('b_1_0', 'lab_1', 8)],
      });
    const pitches = [1, 2].map((r) => find(run('rule_based_expert', obs(r)), 'make_pitch')!);
    assert.notEqual(pitches[0]!.message, pitches[1]!.message);
    for (const p of pitches) {
      assert.deepEqual(p.job_ids, ['j_0_0']);
      // A pitch is public: no hours, deadline or reliability of the seat's job in it (docs/RULES.md §A.2 D13).
      const claims = extractClaims(p.message);
      assert.ok(
        claims.length >= 1 && claims.every((c) => c.kind === 'job' && c.id === 'j_0_0'),
        JSON.stringify(claims),
      );
      assert.doesNotMatch(p.message.replaceAll('j_0_0', ''), /\d/, p.message);
    }
  });

  test('joins a coalition with a spare block, never proposes one that cannot help', () => {
    const invite = {
      id: 'c_1',
      proposer: 'lab_1',
      members: ['lab_1', 'lab_0'],
      purpose: 'pool',
      status: 'proposed' as const,
      roundCreated: 0,
      expiresRound: 4,
      commitments: {
        lab_1: { consented: true, blockIds: [], escrow: 0, standing: 'good' as const },
        lab_0: { consented: false, blockIds: [], escrow: 0, standing: 'good' as const },
      },
      hoursUsedByPartners: { lab_0: 0, lab_1: 0 },
    };
    const acts = run('rule_based_expert', threeBlocks({ coalitions: [invite] }));
    const c = find(acts, 'commit_to_coalition');
    assert.ok(
      c && c.coalition_id === 'c_1' && c.block_ids?.length === 1 && c.block_ids[0] !== 'b_0_1',
      'commits a spare block, not the job’s',
    );
    // All jobs covered and no spare capacity: nothing to pool, so no proposal.
    const tight = observation({
      jobs: [job('j_0_0', 'lab_0', 4, 2)],
      blocks: [block('b_0_0', 'lab_0', 4), block('b_1_0', 'lab_1', 4)],
    });
    assert.ok(!types(run('rule_based_expert', tight)).includes('form_coalition'));
  });
});
