/**
 * Ballots end to end with the real Bolt App against the local Slack emulator (startSlack: catalogue,
 * round host, SQLite): two people pitch, a spectator votes with the ephemeral pair's Block Kit buttons,
 * a retried click (x-slack-retry-num) and a repeat click never make a second row, a vote on one's own
 * pitch is refused privately, and no channel post carries the judge's scores while the ballot is open.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { StartedSlack } from '../../../src/app/slack.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { sendSigned, SlackEmulator, type AppTarget, type BuiltRequest, type SlackUser } from '../../emulators/slack.js';
import { alice, bob, captureLogger, startSlackOnEmulator } from './helpers.js';

const CHANNEL = 'C0VOTES';
const carol: SlackUser = { id: 'U0CAROL', name: 'carol' };
const JUDGE_SCORES = /\d\.\d\d \(need \d|Winner: |won the round/;

type Block = {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { action_id: string; value: string }[];
};
const texts = (body: Record<string, unknown>): string[] => {
  const out = [String(body['text'] ?? '')];
  for (const b of (body['blocks'] as Block[] | undefined) ?? []) {
    if (b.text) out.push(b.text.text);
    for (const f of b.fields ?? []) out.push(f.text);
    for (const e of b.elements ?? []) out.push(e.value.replace(/^@\S+ /, ''));
  }
  return out;
};
const buttonsOf = (body: Record<string, unknown>) =>
  ((body['blocks'] as Block[] | undefined) ?? []).flatMap((b) => b.elements ?? []);

describe('slack: blind votes on pitches', () => {
  const emu = new SlackEmulator();
  const { logger, lines } = captureLogger();
  let store: EventStore;
  let slack: StartedSlack;
  let target: AppTarget;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    ({ slack, target } = await startSlackOnEmulator(emu, store, logger));
  });
  after(async () => {
    await slack.stop();
    await store.close();
    await emu.close();
  });

  async function send(req: BuiltRequest, retryNum?: number): Promise<void> {
    const res = await sendSigned(target, req, retryNum === undefined ? {} : { retryNum });
    assert.equal(res.status, 200);
    await slack.bot.idle();
  }
  async function slash(user: SlackUser, text: string): Promise<BuiltRequest> {
    const req = emu.slashCommand(user, CHANNEL, text);
    await send(req);
    return req;
  }
  /** Ephemeral answers to a request (by its response_url). */
  const answered = (req: BuiltRequest) => emu.responses(req.responseId!).map((r) => r.body);

  test('button votes, retried and repeated clicks, own pitch', async () => {
    const opened = await slash(alice, 'new task:market_round seed:7 round_seconds:0 votes:on');
    assert.ok(
      [...answered(opened), ...emu.calls('chat.postMessage').map((r) => r.body)].some((b) =>
        texts(b).join('\n').includes('collected for research exports'),
      ),
    );
    await slash(alice, 'join lab:lab_0');
    await slash(bob, 'join lab:lab_1');
    await slash(alice, 'start');
    const m = (await slack.host.current(CHANNEL))!;
    for (const [u, lab] of [
      [alice, 'lab_0'],
      [bob, 'lab_1'],
    ] as const) {
      const job = Object.values(m.state!.jobs).find((j) => j.owner === lab)!;
      // Pitches that name their author every way they can: the lab's name and id, the job id, the player's name.
      const name = lab === 'lab_0' ? 'Lab A' : 'Lab B';
      await slash(
        u,
        `pitch text:"We at ${name} (${lab}, ${u.name} speaking): ${job.id} needs its GPU-hours before the deadline" job:${job.id}`,
      );
    }
    await slash(alice, 'done');
    await slash(bob, 'done');
    const posts = emu.calls('chat.postMessage').map((r) => r.body);
    const closePost = posts.find((b) => texts(b).some((t) => /Round 1\/5 closed/.test(t)));
    assert.ok(closePost, 'the round close was posted');
    assert.ok(buttonsOf(closePost).some((e) => e.value === `@${m.id} vote ballot:v_1`));
    assert.doesNotMatch(posts.flatMap(texts).join('\n'), JUDGE_SCORES, 'no channel post shows the judge scores');
    const rows = async () => (await store.listVotes({ matchId: m.id })).length;

    // carol clicks the vote button: her pair comes back privately with the four choices.
    const serve = emu.blockAction(
      carol,
      CHANNEL,
      buttonsOf(closePost).find((e) => e.value === `@${m.id} vote ballot:v_1`)!,
    );
    await send(serve);
    const pair = answered(serve).at(-1)!;
    assert.equal(pair['response_type'], 'ephemeral');
    assert.match(texts(pair).join('\n'), /Ballot v_1 · pair 1 of/);
    assert.doesNotMatch(texts(pair).join('\n'), JUDGE_SCORES);
    assert.doesNotMatch(
      texts(pair).join('\n'),
      /Lab [ABC]|alice|bob|lab_\d|\bj_\d|\bb_\d/i,
      'no author identifiable on the ballot',
    );
    assert.match(
      texts(pair).join('\n'),
      /We at \[own lab\] \(\[own lab\], \[name\] speaking\): \[own job 1\] needs its GPU-hours/,
    );
    const choices = buttonsOf(pair);
    assert.deepEqual(
      choices.map((e) => e.value),
      ['a', 'b', 'tie', 'both_bad'].map((c) => `@${m.id} vote ballot:v_1 pair:1 choice:${c}`),
    );

    const vote = emu.blockAction(carol, CHANNEL, choices[0]!);
    await send(vote);
    assert.match(answered(vote).flatMap(texts).join('\n'), /Vote recorded/);
    assert.equal(await rows(), 1);
    // Slack retries the same request: acknowledged, applied once.
    await send(vote, 1);
    await send(vote, 2);
    assert.equal(await rows(), 1, 'a retried request never doubles a vote');
    assert.ok(lines.some((l) => l.includes('duplicate request ignored')));
    // A new click on another choice of the same pair: a private error, no row.
    const repeat = emu.blockAction(carol, CHANNEL, choices[1]!);
    await send(repeat);
    assert.match(answered(repeat).flatMap(texts).join('\n'), /duplicate_vote/);
    assert.equal(await rows(), 1);
    // bob's own pitch is in pair 1.
    const own = emu.blockAction(bob, CHANNEL, choices[1]!);
    await send(own);
    assert.match(answered(own).flatMap(texts).join('\n'), /own_pitch/);
    assert.ok(answered(own).every((b) => b['response_type'] === 'ephemeral'));
    assert.equal(await rows(), 1);
    assert.equal((await store.listVotes({ matchId: m.id }))[0]!.voterId, `slack:${carol.id}`);
    assert.equal(
      (await store.listVotes({ matchId: m.id }))[0]!.anonymous,
      true,
      'the ballot pair was anonymous after redaction',
    );
  });
});
