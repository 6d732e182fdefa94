/**
 * A whole market_round match (seed 42, no round timer) played by two people through signed `/arena`
 * slash commands, a button click and the pitch modal, with the real Bolt App, the real command catalogue,
 * round host and SQLite store (startSlack), against the emulator. Checks: ephemeral replies travel by
 * response_url / chat.postEphemeral, channel posts by chat.postMessage through the channel queue, a retried
 * request is applied once (store event count), and no public post — nor the other person's ephemerals —
 * carries a seat's private values (job ids, budgets, base values), taken from the engine state.
 *
 * The channel queue runs at a test interval of 100 ms here (rate.test.ts checks the real 1 s). Its
 * spacing is read where the queue acts, when the bot's WebClient starts each chat.postMessage (its
 * `fetch`), not at the emulator: arrival times also carry the in-process delivery delay, which a
 * loaded machine stretches by tens of ms for one post and not the next.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SlackClientOptions } from '../../../src/adapters/slack/app.js';
import { startSlack, type StartedSlack } from '../../../src/app/slack.js';
import { PITCH_CALLBACK_ID } from '../../../src/adapters/slack/modal.js';
import { applyEvent, type HostedMatch } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import {
  sendSigned,
  SlackEmulator,
  type AppTarget,
  type BuiltRequest,
  type RecordedRequest,
  type SlackUser,
} from '../../emulators/slack.js';
import { alice, bob, BOT_TOKEN, captureLogger, SIGNING_SECRET } from './helpers.js';

const CHANNEL = 'C0MATCH';
const INTERVAL_MS = 100;

type Block = {
  type: string;
  text?: { text: string };
  fields?: { text: string }[];
  elements?: { action_id: string; value: string }[];
};

/** Every text of a message body: fallback text and block texts, one entry per block or field. */
function texts(body: Record<string, unknown>): string[] {
  const out = [String(body['text'] ?? '')];
  for (const b of (body['blocks'] as Block[] | undefined) ?? []) {
    if (b.text) out.push(b.text.text);
    for (const f of b.fields ?? []) out.push(f.text);
    // A button's value is its match and command (`@m_… accept offer:o_1`): the command is what a reader sees.
    for (const e of b.elements ?? []) out.push(e.value.replace(/^@\S+ /, ''), e.action_id);
  }
  return out;
}

/** Start times (Date.now(), ms) of the bot's chat.postMessage calls, in order. */
const postStarts: number[] = [];
/** The WebClient's fetch, noting when each chat.postMessage starts. */
const recordingFetch: NonNullable<SlackClientOptions['fetch']> = (url, init) => {
  if (String(url).endsWith('/chat.postMessage')) postStarts.push(Date.now());
  return fetch(url, init);
};

const num = (n: number) => new RegExp(`(?<![\\d.])${n.toFixed(2).replace('.', '\\.')}(?!\\d)`);

describe('a full Slack match through the real catalogue and host', () => {
  const emu = new SlackEmulator();
  const { logger, lines } = captureLogger();
  let store: EventStore;
  let slack: StartedSlack;
  let target: AppTarget;
  let matchId = '';

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    slack = await startSlack({
      env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: emu.apiUrl },
      store,
      logger,
      port: 0,
      listenHost: '127.0.0.1',
      clientOptions: { retryConfig: { retries: 0 }, fetch: recordingFetch },
      postIntervalMs: INTERVAL_MS,
    });
    assert.ok(slack.port);
    target = { url: `http://127.0.0.1:${slack.port}/slack/events`, signingSecret: SIGNING_SECRET };
  });

  after(async () => {
    await slack.stop();
    await store.close();
    await emu.close();
  });

  async function send(req: BuiltRequest, retryNum?: number): Promise<{ status: number; body: string }> {
    const res = await sendSigned(target, req, retryNum === undefined ? {} : { retryNum });
    await slack.bot.idle();
    return res;
  }

  async function slash(user: SlackUser, text: string): Promise<BuiltRequest> {
    const req = emu.slashCommand(user, CHANNEL, text);
    const res = await send(req);
    assert.equal(res.status, 200, text);
    assert.equal(res.body, '', `${text} is acked with an empty body`);
    return req;
  }

  /** What a request's response_url received (ephemeral answers to the caller). */
  function answered(req: BuiltRequest): RecordedRequest[] {
    const rs = emu.responses(req.responseId!);
    for (const r of rs) assert.equal(r.body['response_type'], 'ephemeral');
    return rs;
  }

  async function current(): Promise<HostedMatch> {
    const m = await slack.host.current(CHANNEL);
    assert.ok(m, 'a live match in the channel');
    return m;
  }

  test('two people play market_round to the end', async () => {
    const created = await slash(alice, 'new task:market_round seed:42 round_seconds:0');
    assert.equal(answered(created).length + emu.calls('chat.postMessage').length > 0, true);
    await slash(alice, 'join');
    await slash(bob, 'join');
    const started = await slash(alice, 'start');
    let m = await current();
    matchId = m.id;
    assert.equal(m.phase, 'running');
    const labA = slack.host.seatOf(m, `slack:${alice.id}`)!;
    const labB = slack.host.seatOf(m, `slack:${bob.id}`)!;
    assert.ok(labA && labB && labA !== labB);
    const state = m.state!;
    const jobsOf = (lab: string) =>
      Object.values(state.jobs)
        .filter((j) => j.owner === lab)
        .map((j) => j.id);

    // Private briefings: the caller's through its response_url, the other person's by chat.postEphemeral.
    const aliceBrief = answered(started)
      .flatMap((r) => texts(r.body))
      .join('\n');
    for (const j of jobsOf(labA)) assert.ok(aliceBrief.includes(j), `alice's briefing names her job ${j}`);
    const bobBrief = emu
      .calls('chat.postEphemeral')
      .filter((r) => r.body['user'] === bob.id)
      .flatMap((r) => texts(r.body))
      .join('\n');
    for (const j of jobsOf(labB)) assert.ok(bobBrief.includes(j), `bob's briefing names his job ${j}`);

    // `me` is private.
    const me = await slash(bob, 'me');
    assert.ok(answered(me).length >= 1);
    assert.ok(texts(answered(me)[0]!.body).join('\n').includes(jobsOf(labB)[0]!));

    // A bad command: an ephemeral error, nothing public.
    const postsBefore = emu.calls('chat.postMessage').length;
    const bad = await slash(bob, 'offer to:lab_9');
    assert.match(texts(answered(bad)[0]!.body).join('\n'), /lab_9|unknown|Valid/i);
    assert.equal(emu.calls('chat.postMessage').length, postsBefore);

    // An offer, sent twice (Slack retry): applied once.
    const give = Object.values(state.blocks).find((b) => b.owner === labA)!.id;
    const seq0 = await store.lastSeq(matchId);
    const offerReq = emu.slashCommand(alice, CHANNEL, `offer to:${labB} give:${give} pay:1 msg:"a block for you"`);
    assert.equal((await send(offerReq)).status, 200);
    const seq1 = await store.lastSeq(matchId);
    assert.equal(seq1, seq0 + 1, 'the offer is one action event');
    assert.equal((await send(offerReq, 1)).status, 200);
    assert.equal(await store.lastSeq(matchId), seq1, 'the retried request appended nothing');
    m = await current();
    assert.equal(Object.keys(m.state!.offers).length, 1);
    assert.ok(lines.some((l) => l.includes('duplicate request ignored')));

    // The public offer post has no answer buttons (alice would see them too); bob gets his privately
    // (chat.postEphemeral to him) and accepts with that button.
    assert.ok(
      emu.calls('chat.postMessage').some((r) => texts(r.body).some((t) => /makes an offer to/.test(t))),
      'the offer was posted',
    );
    assert.ok(
      !emu.calls('chat.postMessage').some((r) => texts(r.body).some((t) => /^(accept|reject|counter) offer:/.test(t))),
      'no public answer buttons',
    );
    const offerPost = emu
      .calls('chat.postEphemeral')
      .find((r) => r.body['user'] === bob.id && texts(r.body).some((t) => t.startsWith('accept offer:')))!;
    assert.ok(offerPost, "bob's private offer post has the buttons");
    assert.ok(
      !emu
        .calls('chat.postEphemeral')
        .some((r) => r.body['user'] === alice.id && texts(r.body).some((t) => t.startsWith('accept offer:'))),
      'alice gets no accept button',
    );
    assert.ok(texts(offerPost.body).some((t) => t.startsWith('counter offer:')));
    const acceptBtn = (offerPost.body['blocks'] as Block[])
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.value.startsWith(`@${matchId} accept offer:`))!;
    const click = emu.blockAction(bob, CHANNEL, acceptBtn);
    assert.equal((await send(click)).status, 200);
    m = await current();
    assert.equal(m.state!.blocks[give]!.owner, labB, 'the trade executed');

    // Alice pitches through the modal.
    const pitchCmd = await slash(alice, 'pitch');
    const open = emu.calls('views.open').find((r) => r.body['trigger_id'] === pitchCmd.triggerId)!;
    const view = open.body['view'] as { private_metadata: string };
    const sub = emu.viewSubmission(alice, {
      callback_id: PITCH_CALLBACK_ID,
      private_metadata: view.private_metadata,
      values: { text: 'We need more GPU capacity this round to finish our training run.', job: null },
    });
    const subRes = await send(sub);
    assert.equal(subRes.status, 200);
    m = await current();
    assert.equal(m.state!.pitches.length >= 1, true, 'the pitch reached the engine');

    // Rounds close when both are done, until the match is over.
    let rounds = 0;
    while ((await slack.host.current(CHANNEL))?.phase === 'running') {
      await slash(alice, 'done');
      await slash(bob, 'done');
      rounds++;
      assert.ok(rounds <= 5, 'market_round has 5 rounds');
    }
    assert.equal(rounds, 5);
    assert.equal(await slack.host.current(CHANNEL), null, 'the match is over');
    const headers = emu.calls('chat.postMessage').map((r) => (r.body['blocks'] as Block[])[0]?.text?.text ?? '');
    assert.ok(headers.includes('Match over: final leaderboard'));
  });

  test('channel posts went through chat.postMessage, spaced by the channel queue', () => {
    const posts = emu.calls('chat.postMessage');
    assert.ok(posts.length >= 12);
    assert.ok(posts.every((p) => p.body['channel'] === CHANNEL));
    assert.equal(postStarts.length, posts.length, 'every chat.postMessage the bot started reached the emulator');
    for (let i = 1; i < postStarts.length; i++) {
      const gap = postStarts[i]! - postStarts[i - 1]!;
      assert.ok(gap >= INTERVAL_MS / 2, `posts ${i} and ${i + 1} started ${gap} ms apart`);
    }
  });

  test('no public post and no ephemeral of the other person carries a seat’s private values', async () => {
    assert.ok(matchId);
    const events = await store.load(matchId);
    let m: HostedMatch | null = null;
    const budgets = new Map<string, Set<string>>();
    for (const ev of events) {
      m = applyEvent(m, ev).match;
      for (const [lab, l] of Object.entries(m?.state?.labs ?? {}))
        budgets.set(lab, (budgets.get(lab) ?? new Set()).add(l.budget.toFixed(2)));
    }
    const final = m!;
    assert.equal(final.phase, 'over');
    const state = final.state!;
    const privateOf = (lab: string) => {
      const jobs = Object.values(state.jobs).filter((j) => j.owner === lab);
      return {
        jobIds: jobs.map((j) => j.id),
        numbers: [...(budgets.get(lab) ?? [])].map(Number).concat(jobs.map((j) => j.baseValue)),
      };
    };

    // Public: every chat.postMessage of the match. Deadline results name settled jobs publicly (RULES §2 step 5,
    // SettlementEvent), so the "Deadlines" field is left out of the job-id check only.
    const publicTexts = emu.calls('chat.postMessage').flatMap((r) => texts(r.body));
    const withoutDeadlines = publicTexts.filter((t) => !t.startsWith('*Deadlines*')).join('\n');
    const all = publicTexts.join('\n');
    for (const lab of state.labIds) {
      const p = privateOf(lab);
      for (const j of p.jobIds)
        assert.ok(!new RegExp(`\\b${j}\\b`).test(withoutDeadlines), `public posts name ${lab}'s job ${j}`);
      for (const n of p.numbers)
        assert.doesNotMatch(all, num(n), `public posts carry ${lab}'s private number ${n.toFixed(2)}`);
    }

    // Ephemerals: what bob received never carries alice's private values, and the reverse.
    const labA = Object.entries(final.drivers).find(
      ([, d]) => d.kind === 'human' && d.userId === `slack:${alice.id}`,
    )![0];
    const labB = Object.entries(final.drivers).find(
      ([, d]) => d.kind === 'human' && d.userId === `slack:${bob.id}`,
    )![0];
    const received = (user: SlackUser) =>
      emu
        .calls('chat.postEphemeral')
        .filter((r) => r.body['user'] === user.id)
        .flatMap((r) => texts(r.body))
        .join('\n');
    for (const [user, otherLab] of [
      [bob, labA],
      [alice, labB],
    ] as const) {
      const got = received(user);
      for (const j of privateOf(otherLab).jobIds)
        assert.ok(
          !new RegExp(`\\b${j}\\b`).test(got.replace(/\*Deadlines\*[^*]*/g, '')),
          `${user.name} saw ${otherLab}'s job ${j}`,
        );
    }
  });

  test('logs name the match, seat and command and hold no secrets', () => {
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const offerLog = parsed.find((l) => l['msg'] === 'slack: command answered' && l['command'] === 'offer');
    assert.ok(offerLog);
    assert.equal(offerLog['matchId'], matchId);
    assert.match(String(offerLog['seat']), /^lab_\d$/);
    const text = lines.join('\n');
    assert.ok(!text.includes(BOT_TOKEN));
    assert.ok(!text.includes(SIGNING_SECRET));
    assert.ok(!text.includes('a block for you'), 'message texts stay out of the logs');
  });
});
