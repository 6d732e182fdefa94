import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Reply } from '../../src/commands/types.js';
import { jobValue } from '../../src/engine/index.js';
import type { MatchState, TaskName } from '../../src/engine/types.js';
import { harness, person, postText, publicText, unwrap } from './helpers.js';

const alice = person('alice');
const bob = person('bob');

/** Every private number of a state, as it would be printed (2 dp): budgets, job values, realised values. */
function privateNumbers(s: MatchState, into: Set<string>): void {
  for (const lab of Object.values(s.labs)) {
    into.add(lab.budget.toFixed(2));
    into.add(lab.initialBudget.toFixed(2));
  }
  for (const j of Object.values(s.jobs)) {
    into.add(j.baseValue.toFixed(2));
    into.add(jobValue(j).toFixed(2));
    if (j.realisedValue !== null && Math.abs(j.realisedValue) >= 1) into.add(j.realisedValue.toFixed(2));
  }
}

/** Each person plays a few actions a round that put private numbers into play (pitches, offers, allocations). */
function actionsFor(s: MatchState, lab: string, other: string): unknown[] {
  const jobs = Object.values(s.jobs).filter((j) => j.owner === lab && j.outcome === 'pending');
  const mine = Object.values(s.blocks).filter((b) => b.owner === lab && b.status === 'available');
  const theirs = Object.values(s.blocks).filter((b) => b.owner === other && b.status === 'available');
  const budget = s.labs[lab]?.budget ?? 0;
  const j = jobs[0];
  const out: unknown[] = [];
  if (j) {
    out.push({
      action_type: 'make_pitch',
      message: `${j.id} is worth ${jobValue(j).toFixed(2)} to us, we hold ${budget.toFixed(2)} credits and need ${j.gpuHoursRequired} GPU-hours by round ${j.deadlineRound}.`,
      job_ids: [j.id],
    });
  }
  if (theirs[0])
    out.push({
      action_type: 'send_offer',
      target_lab_id: other,
      requested_block_ids: [theirs[0].id],
      payment: Math.min(12, budget),
      message: `my budget is ${budget.toFixed(2)}`,
    });
  const incoming = Object.values(s.offers).find((o) => o.to === lab && o.status === 'active');
  if (incoming) out.push({ action_type: 'accept_offer', offer_id: incoming.id });
  if (j && mine[0]) out.push({ action_type: 'allocate_to_job', job_id: j.id, block_ids: [mine[0].id] });
  out.push({ action_type: 'send_message', message: `Lab ${lab} has ${budget.toFixed(2)} credits` });
  return out;
}

async function playMatch(task: TaskName, seed: number, ch: string) {
  const h = await harness();
  const publicReplies: Reply[] = [];
  const privateReplies: Reply[] = [];
  const privateVals = new Set<string>();
  unwrap(await h.host.create(ch, 'console', alice, { task, seed, roundSeconds: 60 }));
  unwrap(await h.host.join(ch, alice, 'lab_0'));
  unwrap(await h.host.join(ch, bob, 'lab_1'));
  const started = unwrap(await h.host.start(ch, alice));
  publicReplies.push(started.reply);
  privateReplies.push(started.reply);
  let m = started.match;
  let round = 0;
  while (m.phase === 'running' && m.state) {
    privateNumbers(m.state, privateVals);
    for (const [p, lab, other] of [
      [alice, 'lab_0', 'lab_1'],
      [bob, 'lab_1', 'lab_0'],
    ] as const) {
      const now: MatchState | null = m.state;
      if (!now || m.phase !== 'running') break;
      for (const a of actionsFor(now, lab, other)) {
        const r = unwrap(await h.host.act(ch, p, a));
        if (r.reply) publicReplies.push(r.reply);
        m = r.match;
        if (m.state) privateNumbers(m.state, privateVals);
        if (m.phase !== 'running' || !m.state) break;
      }
    }
    if (round % 2 === 0) {
      unwrap(await h.host.done(ch, alice));
      const d = unwrap(await h.host.done(ch, bob));
      if (d.closed) publicReplies.push(d.closed);
    } else {
      await h.clock.advance(60_000);
      await h.host.idle();
    }
    const cur = await h.host.current(ch);
    if (!cur) break;
    m = cur;
    round++;
  }
  publicReplies.push(...h.published.map((x) => x.reply));
  privateReplies.push(...publicReplies);
  await h.host.stop();
  return { publicReplies, privateReplies, privateVals, rounds: round };
}

describe('round host privacy', () => {
  test('no budget, job value or deadline in any public post of several full matches', async () => {
    const games: [TaskName, number][] = [
      ['single_trade', 4],
      ['market_round', 1],
      ['market_round', 2],
      ['coalition_market', 3],
    ];
    let closes = 0;
    for (const [i, [task, seed]] of games.entries()) {
      const { publicReplies, privateReplies, privateVals } = await playMatch(task, seed, `priv${i}`);
      const pub = publicText(...publicReplies);
      assert.match(pub, /Match over: final leaderboard/, `${task}/${seed} played to the end`);
      closes += (pub.match(/ closed: /g) ?? []).length;
      // What players wrote themselves (pitches, messages, notes: marked player text) is theirs to publish;
      // the bot's own words must carry no private number.
      const botWords = pub.replace(/\uE000[^\uE001]*\uE001|\uE002[^\uE003]*\uE003/g, '“…”');
      assert.ok(botWords.length < pub.length, "players' texts are marked as such");
      const leaks = [...privateVals].filter((v) => botWords.includes(v));
      assert.deepEqual(leaks, [], `${task}/${seed}: private numbers in public posts`);
      // A demand surge's due round is public by rule (docs/RULES.md §5: every lab's surge job is due then, and
      // the shock says so); no other deadline may appear.
      const withoutSurge = botWords.replace(/^demand surge: .*, due by the end of round \d+$/gm, '');
      assert.doesNotMatch(withoutSurge, /by the end of round|deadline round|deadlineRound|budget/i);
      const beforeFinal = botWords.split('Match over: final leaderboard')[0] ?? '';
      assert.doesNotMatch(
        beforeFinal,
        new RegExp(`\\bseed\\b`, 'i'),
        'the seed (which determines every private value) stays hidden until the end',
      );
      // The scanner can see leaks: the same numbers do appear in the private posts.
      const priv = privateReplies.flatMap((r) => r.private.map(postText)).join('\n');
      assert.ok(
        [...privateVals].some((v) => priv.includes(v)),
        'private posts carry private numbers',
      );
    }
    assert.ok(closes >= 3 + 5 + 5 + 8, 'every round of every match was reported');
  });
});
