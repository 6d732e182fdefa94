/**
 * A channel demo match end to end on Slack: the real Bolt App (startSlack: catalogue, round host on the real
 * clock, SQLite ':memory:', the WebClient's default retries) against the emulator with chat.postMessage
 * paced at Slack's 1 message per second per channel (HTTP 429 + Retry-After beyond it). A host sends
 * `/arena new … round_seconds:1` and `/arena start` with nobody seated: three scripted seats play
 * market_round (seed 3) on the timer, producing round closes faster than one post a second.
 *
 * Checks: the match ends with the final standings; every round close was posted once, in order; the posts
 * are words (offer terms, pitches, reasons), not action names; no private value reached the channel; and
 * the bot stayed within the limit: the posts the host handed over arrived once each, in order, at the
 * emulator, and any 429 was followed by the same post accepted (the adapter's channel queue paces posts at
 * 1 s, deliver.ts; @slack/web-api retries a 429 after its Retry-After).
 *
 * ARENA_WRITE_TRANSCRIPT=1 writes the channel's posts to docs/demo/slack-watch.txt.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Reply } from '../../../src/commands/types.js';
import { startSlack, type StartedSlack } from '../../../src/app/slack.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { sendSigned, SlackEmulator, type AppTarget } from '../../emulators/slack.js';
import { assertToldInWords, leaksInPosts, statesOf, writeTranscript, type ChannelPost } from '../watch-checks.js';
import { alice, BOT_TOKEN, captureLogger, SIGNING_SECRET } from './helpers.js';

const CHANNEL = 'C0WATCH';
/**
 * Slack's chat.postMessage limit: "1 per second, short bursts >1 allowed" per channel. Modelled as at most
 * one post a second over time with a burst of two (a post may come up to 1 s early): arrival jitter on a
 * loaded machine is no 429, while a bot posting faster than 1/s for more than a moment is refused.
 */
const RATE = { intervalMs: 1000, toleranceMs: 1000 };

type Json = Record<string, unknown>;
type Block = { type: string; text?: { text: string }; fields?: { text: string }[] };

/** A chat.postMessage body as the channel shows it: the header block is the title; sections and fields follow. */
function asPost(body: Json): ChannelPost {
  const blocks = (body['blocks'] as Block[] | undefined) ?? [];
  const title = blocks.find((b) => b.type === 'header')?.text?.text ?? '';
  const lines = blocks
    .flatMap((b) => [b.text?.text ?? '', ...(b.fields ?? []).map((f) => f.text)])
    .filter((l) => l !== '');
  return { title, text: lines.join('\n') };
}

/** The channel as a reader sees it, for the transcript: the posts, each with the charts uploaded after it (files.uploadV2). */
function withUploads(emu: SlackEmulator, channel: string): ChannelPost[] {
  const out: ChannelPost[] = [];
  for (const r of emu.requests) {
    if (r.method === 'chat.postMessage' && r.body['channel'] === channel) out.push(asPost(r.body));
    const last = out.at(-1);
    if (r.method !== 'files.completeUploadExternal' || r.body['channel_id'] !== channel || !last) continue;
    for (const f of (r.body['files'] ?? []) as { title?: string }[])
      last.text += `\n[chart uploaded: ${f.title ?? ''}]`;
  }
  return out;
}

describe('slack emulator: chat.postMessage at 1 per second per channel', () => {
  test('a third post within the second is answered 429 with Retry-After; another channel is not held up', async () => {
    const emu = new SlackEmulator({ postMessageRate: RATE });
    await emu.start();
    try {
      const post = (channel: string) =>
        fetch(`${emu.apiUrl}chat.postMessage`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${BOT_TOKEN}` },
          body: new URLSearchParams({ channel, text: 'x' }).toString(),
        });
      const answers = [await post('C1'), await post('C1'), await post('C1'), await post('C2')];
      assert.deepEqual(
        answers.map((r) => r.status),
        [200, 200, 429, 200],
        'a burst of two, then 429; C2 has its own pace',
      );
      const refused = answers[2]!;
      assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After in whole seconds');
      assert.deepEqual(await refused.json(), { ok: false, error: 'ratelimited' });
      assert.equal(emu.calls('chat.postMessage').length, 3, 'the refused post is not kept');
      assert.deepEqual(
        emu.rateLog.map((r) => [r.key, r.status]),
        [
          ['C1', 200],
          ['C1', 200],
          ['C1', 429],
          ['C2', 200],
        ],
      );
    } finally {
      await emu.close();
    }
  });
});

describe('slack: a match of agents watched in a channel, within the rate limit', () => {
  const emu = new SlackEmulator({ postMessageRate: RATE });
  const { logger } = captureLogger();
  /** Titles of the public posts the host handed to the bot (timer round closes), in order. */
  const handed: string[] = [];
  let store: EventStore;
  let slack: StartedSlack;
  let target: AppTarget;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    slack = await startSlack({
      env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: emu.apiUrl },
      store,
      logger,
      port: 0,
      listenHost: '127.0.0.1',
    });
    target = { url: `http://127.0.0.1:${slack.port}/slack/events`, signingSecret: SIGNING_SECRET };
    // Spy on what the host publishes (the host calls this very object's publish), to compare with what arrived.
    const publish = slack.bot.publish;
    slack.bot.publish = async (channelId: string, reply: Reply) => {
      for (const p of reply.public) handed.push(p.title ?? '');
      return publish(channelId, reply);
    };
  });
  after(async () => {
    await slack.stop();
    await store.close();
    await emu.close();
  });

  /** Sends a signed `/arena <text>` and waits for its ack (not for its posts: the queue may hold them a while). */
  async function slash(text: string): Promise<void> {
    const res = await sendSigned(target, emu.slashCommand(alice, CHANNEL, text));
    assert.equal(res.status, 200, text);
  }

  test('new round_seconds:1 and start with nobody seated play market_round to the final standings', async () => {
    const started = Date.now();
    await slash('new task:market_round seed:3 round_seconds:1');
    await emu.waitFor((r) => r.method === 'chat.postMessage' && /^Lobby: /.test(asPost(r.body).title));
    const matchId = (await slack.host.current(CHANNEL))?.id;
    assert.ok(matchId, 'the lobby is open');
    await slash('start');
    await emu.waitFor((r) => r.method === 'chat.postMessage' && /^Match over/.test(asPost(r.body).title), 50_000);
    const durationMs = Date.now() - started;
    await slack.host.idle();
    await slack.bot.idle();

    const accepted = emu.calls('chat.postMessage').filter((r) => r.body['channel'] === CHANNEL);
    const pub = accepted.map((r) => asPost(r.body));
    assert.match(pub.map((p) => p.title).join('\n'), /Match started/);
    assertToldInWords(pub);

    // Nothing private: scanned against every state of the match, from the store.
    const states = await statesOf(store, matchId);
    assert.ok(states.at(-1)!.over, 'the stored match is over');
    assert.deepEqual(leaksInPosts(states, pub), []);

    // Within the rate limit: the posts handed over by the host arrived once each, in order, after the
    // answers to `new` and `start`; every 429 was followed by the same post accepted.
    assert.ok(handed.length > 5, `the host handed over ${handed.length} posts, more than one a second`);
    assert.deepEqual(
      pub.slice(-handed.length).map((p) => p.title),
      handed,
      'posts neither lost nor reordered',
    );
    assert.equal(new Set(pub.map((p) => p.text)).size, pub.length, 'no post duplicated');
    const refused = emu.rateLog.filter((r) => r.status === 429);
    for (const r of refused) {
      assert.ok(
        emu.rateLog.some((a) => a.status === 200 && a.seq > r.seq && JSON.stringify(a.body) === JSON.stringify(r.body)),
        'a refused post was sent again and accepted',
      );
    }
    // The accepted posts keep the pace over any stretch: k further posts take at least (k - 1) s.
    const times = emu.rateLog.filter((r) => r.status === 200 && r.key === CHANNEL).map((r) => r.at);
    for (let i = 0; i < times.length; i++) {
      for (let j = i + 1; j < times.length; j++)
        assert.ok(
          times[j]! - times[i]! >= (j - i) * RATE.intervalMs - RATE.toleranceMs,
          `posts ${i + 1}..${j + 1} within ${times[j]! - times[i]!} ms`,
        );
    }

    writeTranscript(
      'docs/demo/slack-watch.txt',
      {
        platform: 'Slack',
        command:
          '/arena new task:market_round seed:3 round_seconds:1, then /arena start (nobody seated: three scripted seats)',
        limit: 'chat.postMessage 1 per second per channel (a burst of 2 tolerated)',
        posts: pub.length,
        limited: refused.length,
        durationMs,
      },
      withUploads(emu, CHANNEL),
    );
    console.log(
      `slack watch: ${pub.length} channel posts, ${refused.length} answered 429, ${(durationMs / 1000).toFixed(1)} s to the final post`,
    );
  });
});
