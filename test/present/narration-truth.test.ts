/**
 * Every sentence the game says is true for the event it narrates (docs/RULES.md §3, §5): for every action
 * type the round post can narrate and every shock kind, the sentence is checked against the engine's own
 * record of the event — who acted, what it named, and how much (block hours and reliability, credits, lab
 * names, rounds). Private values never appear: amounts of escrow, bids, job hours and deadlines.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { announcedAuction, applyAction, closeRound, createMatch, SHOCK_KINDS } from '../../src/engine/index.js';
import type { ActionInput, MatchState, ShockKind } from '../../src/engine/index.js';
import type { ActionRecord, HostedMatch } from '../../src/match/types.js';
import { narrate } from '../../src/present/narrate.js';
import { shockSentence } from '../../src/present/shocks.js';

const asMatch = (state: MatchState): HostedMatch => ({ state, drivers: {} }) as unknown as HostedMatch;
const facts = (s: MatchState, id: string): string =>
  `${id} (${s.blocks[id]!.gpuHours} GPU-h @${s.blocks[id]!.reliability.toFixed(2)})`;

/** Apply `a` for `lab` (it must succeed); returns the new state and the narration of that one step. */
function narrated(s: MatchState, lab: string, a: ActionInput): { state: MatchState; lab: string; lines: string[] } {
  const out = applyAction(s, lab, a);
  assert.equal(out.result.ok, true, `${JSON.stringify(a)}: ${out.result.code} ${out.result.message}`);
  const rec: ActionRecord = {
    seq: 1,
    round: s.round,
    lab,
    action: a,
    ok: true,
    code: out.result.code,
    ...(out.result.created ? { created: out.result.created } : {}),
  };
  const told = narrate(asMatch(out.state), [rec]);
  // Player text is wrapped in invisible markers (src/chat/player-text.ts) that each platform renders as a quote.
  return {
    state: out.state,
    lab: told[0]?.lab ?? '',
    lines: (told[0]?.lines ?? []).map((l) => l.replace(/[\uE000-\uE003]/g, '')),
  };
}

describe('narration: every action type, checked against its event', () => {
  test('offers, counters, accepts, rejects and withdrawals name both labs, the offer id and its terms', () => {
    let s = createMatch({ task: 'coalition_market', seed: 4 });
    const give = 'b_0_0';
    const want = 'b_1_0';
    let t = narrated(s, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_1',
      block_ids: [give],
      requested_block_ids: [want],
      payment: 3,
      message: 'swap?',
    });
    assert.equal(t.lab, 'lab_0');
    assert.deepEqual(t.lines, [`offered Lab B o_1: ${facts(s, give)} + 3.00 credits for ${facts(s, want)} — “swap?”`]);
    s = t.state;
    t = narrated(s, 'lab_1', {
      action_type: 'counter_offer',
      offer_id: 'o_1',
      block_ids: [want],
      requested_block_ids: [give],
      ask: 7,
      message: 'a bit more',
    });
    assert.deepEqual(
      [t.lab, t.lines],
      [
        'lab_1',
        [`countered o_1 from Lab A with o_2: ${facts(s, want)} for ${facts(s, give)} + 7.00 credits — “a bit more”`],
      ],
    );
    s = t.state;
    t = narrated(s, 'lab_0', { action_type: 'accept_offer', offer_id: 'o_2' });
    assert.deepEqual(t.lines, ['accepted o_2 from Lab B']);
    assert.equal(t.state.blocks[want]!.owner, 'lab_0', 'the trade the sentence tells happened');
    s = t.state;
    s = narrated(s, 'lab_2', {
      action_type: 'send_offer',
      target_lab_id: 'lab_0',
      requested_block_ids: [want],
      payment: 4,
    }).state;
    assert.deepEqual(narrated(s, 'lab_0', { action_type: 'reject_offer', offer_id: 'o_3' }).lines, [
      'rejected o_3 from Lab C',
    ]);
    s = narrated(s, 'lab_0', {
      action_type: 'send_offer',
      target_lab_id: 'lab_3',
      block_ids: ['b_0_1'],
      ask: 20,
    }).state;
    assert.deepEqual(narrated(s, 'lab_0', { action_type: 'reject_offer', offer_id: 'o_4' }).lines, ['withdrew o_4']);
  });

  test('pitches, counter-pitches and messages quote the player; a direct message is told only as one', () => {
    let s = createMatch({ task: 'market_round', seed: 2 });
    let t = narrated(s, 'lab_1', { action_type: 'make_pitch', message: 'We need eight GPU-hours this round.' });
    assert.deepEqual([t.lab, t.lines], ['lab_1', ['pitched: “We need eight GPU-hours this round.”']]);
    s = t.state;
    t = narrated(s, 'lab_0', {
      action_type: 'counter_pitch',
      target_lab_id: 'lab_1',
      message: 'Our job is due sooner than theirs.',
    });
    assert.deepEqual(t.lines, ["answered Lab B's pitch: “Our job is due sooner than theirs.”"]);
    assert.deepEqual(
      narrated(s, 'lab_0', { action_type: 'send_message', target_lab_id: null, message: 'selling 4-GPU blocks' }).lines,
      ['said: “selling 4-GPU blocks”'],
    );
    const dm = narrated(s, 'lab_0', {
      action_type: 'send_message',
      target_lab_id: 'lab_2',
      message: 'my budget is 99',
    }).lines;
    assert.deepEqual(dm, ['sent Lab C a direct message']);
  });

  test('reserve, release, allocate: counts of blocks, never job hours', () => {
    let s = createMatch({ task: 'market_round', seed: 2 });
    const job = Object.values(s.jobs).find((j) => j.owner === 'lab_0')!;
    const blocks = Object.values(s.blocks)
      .filter((b) => b.owner === 'lab_0' && b.reliability >= job.minReliability)
      .map((b) => b.id);
    let t = narrated(s, 'lab_0', { action_type: 'reserve_capacity', block_ids: blocks.slice(0, 2), job_id: job.id });
    assert.deepEqual(t.lines, [`reserved ${blocks.slice(0, 2).length === 1 ? '1 block' : '2 blocks'}`]);
    s = t.state;
    t = narrated(s, 'lab_0', { action_type: 'release_capacity', block_ids: blocks.slice(0, 1) });
    assert.deepEqual(t.lines, ['released 1 block']);
    t = narrated(s, 'lab_0', { action_type: 'allocate_to_job', job_id: job.id, block_ids: blocks.slice(0, 1) });
    assert.deepEqual(t.lines, ['put 1 block to work on its jobs']);
    assert.ok(!t.lines.join(' ').includes(String(job.gpuHoursRequired)) || String(job.gpuHoursRequired) === '1');
  });

  test('coalitions: a proposal names partners and purpose; a commit says what was committed, "joined" when nothing was', () => {
    let s = createMatch({ task: 'coalition_market', seed: 4 });
    let t = narrated(s, 'lab_0', {
      action_type: 'form_coalition',
      target_lab_ids: ['lab_1', 'lab_2'],
      message: 'pool for deadlines',
    });
    assert.deepEqual(t.lines, ['proposed coalition c_1 with Lab B, Lab C — “pool for deadlines”']);
    s = t.state;
    t = narrated(s, 'lab_1', { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: [], payment: 0 });
    assert.deepEqual(t.lines, ['joined coalition c_1'], 'an empty first commit is consent, with nothing committed');
    s = t.state;
    t = narrated(s, 'lab_2', {
      action_type: 'commit_to_coalition',
      coalition_id: 'c_1',
      block_ids: ['b_2_0'],
      payment: 5,
    });
    assert.deepEqual(
      t.lines,
      ['committed 1 block and credits in escrow to coalition c_1'],
      'the escrow amount stays private',
    );
    s = t.state;
    t = narrated(s, 'lab_0', { action_type: 'commit_to_coalition', coalition_id: 'c_1', block_ids: [], payment: 2 });
    assert.deepEqual(t.lines, ['committed credits in escrow to coalition c_1']);
  });

  test('bids stay sealed; finish says what it does; wait says nothing', () => {
    let s = createMatch({ task: 'market_round', seed: 2 });
    s = { ...s, shockSchedule: [{ round: 0, kind: 'emergency_auction' }] };
    s = { ...s, auction: announcedAuction(s, 0) };
    const bid = narrated(s, 'lab_0', { action_type: 'bid', amount: 17.5 });
    assert.deepEqual(bid.lines, ['placed a sealed bid']);
    assert.equal(bid.state.auction!.bids['lab_0'], 17.5, 'the bid the sentence tells was placed');
    assert.deepEqual(narrated(s, 'lab_1', { action_type: 'finish' }).lines, [
      'finished: its jobs are settled and it takes no further part',
    ]);
    assert.deepEqual(narrated(s, 'lab_1', { action_type: 'wait' }).lines, []);
  });
});

describe('narration: every shock kind, checked against its event', () => {
  /** Close round 0 of a match whose only scheduled shock is `kind`; the sentence and the states around it. */
  function shock(kind: ShockKind, prepare: (s: MatchState) => MatchState = (s) => s) {
    let s = createMatch({ task: 'market_round', seed: 2 });
    s = prepare({ ...s, shockSchedule: [{ round: 0, kind }] });
    const { state, report } = closeRound(s, { judge: null });
    const x = report.shocks.find((e) => e.kind === kind)!;
    assert.ok(x, `${kind} happened`);
    return { before: s, after: state, x, sentence: shockSentence(asMatch(state), x) };
  }

  test('all seven kinds are covered', () => {
    assert.deepEqual([...SHOCK_KINDS].sort(), [
      'capacity_failure',
      'deadline_acceleration',
      'demand_surge',
      'emergency_auction',
      'energy_spike',
      'new_supply',
      'reliability_downgrade',
    ]);
  });

  test('capacity_failure names the block that failed and its owner', () => {
    const { after, x, sentence } = shock('capacity_failure');
    const id = x.blockIds[0]!;
    assert.equal(after.blocks[id]!.status, 'failed');
    assert.equal(
      sentence,
      `capacity failure: ${id} of ${after.labs[after.blocks[id]!.owner]!.publicName} failed and can no longer run jobs`,
    );
  });

  test('new_supply names the new block with its public size and who got it', () => {
    const { before, after, sentence } = shock('new_supply');
    const id = Object.keys(after.blocks).find((b) => !(b in before.blocks))!;
    const b = after.blocks[id]!;
    assert.equal(
      sentence,
      `new supply: ${id} (${b.gpuHours} GPU-h @${b.reliability.toFixed(2)}) went to ${after.labs[b.owner]!.publicName}`,
    );
  });

  test('energy_spike and reliability_downgrade say by how much, as the blocks changed', () => {
    const e = shock('energy_spike');
    const some = Object.keys(e.before.blocks)[0]!;
    assert.equal(e.after.blocks[some]!.energyCost, Math.round(e.before.blocks[some]!.energyCost * 1.25 * 100) / 100);
    assert.match(
      e.sentence,
      /^energy spike: energy costs of every live block rose by 25% \(blocks of Lab A, Lab B and Lab C\)$/,
    );
    const r = shock('reliability_downgrade');
    assert.equal(
      r.after.blocks[some]!.reliability,
      Math.round((r.before.blocks[some]!.reliability - 0.12) * 100) / 100,
    );
    assert.match(r.sentence, /^reliability downgrade: every live block lost 0\.12 reliability/);
  });

  test('deadline_acceleration names the lab whose deadline moved, and nothing of the job', () => {
    const { before, after, sentence } = shock('deadline_acceleration');
    const moved = Object.values(after.jobs).find((j) => j.deadlineRound < before.jobs[j.id]!.deadlineRound)!;
    assert.equal(
      sentence,
      `deadline acceleration: a deadline of ${after.labs[moved.owner]!.publicName} moved one round earlier`,
    );
    assert.ok(!sentence.includes(moved.id));
  });

  test('demand_surge names every lab that got a job and the round it is due, as the jobs say', () => {
    const { before, after, sentence } = shock('demand_surge');
    const surge = Object.values(after.jobs).filter((j) => !(j.id in before.jobs));
    assert.equal(surge.length, 3);
    const due = surge[0]!.deadlineRound + 1;
    assert.ok(surge.every((j) => j.deadlineRound + 1 === due));
    assert.equal(
      sentence,
      `demand surge: Lab A, Lab B and Lab C each got an urgent job (partial credit), due by the end of round ${due}`,
    );
  });

  test('emergency_auction names the winner, the lot and the winning bid only', () => {
    const { after, sentence } = shock('emergency_auction', (s) => {
      let t: MatchState = { ...s, auction: announcedAuction(s, 0) };
      t = applyAction(t, 'lab_1', { action_type: 'bid', amount: 21 }).state;
      return applyAction(t, 'lab_2', { action_type: 'bid', amount: 13 }).state;
    });
    const lot = Object.values(after.blocks).find((b) => b.id.startsWith('b_s'))!;
    assert.equal(lot.owner, 'lab_1');
    assert.equal(
      sentence,
      `emergency auction: Lab B won the emergency auction for ${lot.id} (${lot.gpuHours} GPU-hours) with a sealed bid of 21.00 credits.`,
    );
    assert.ok(!sentence.includes('13'), 'the losing bid stays sealed');
  });
});
