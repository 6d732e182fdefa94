/**
 * A channel demo match end to end on Discord: the real discord.js Client (startDiscord: catalogue, round host
 * on the real clock, SQLite ':memory:') against the emulator with Discord's per-channel message bucket on
 * (5 messages per 5 s, X-RateLimit-* headers, 429 + retry_after beyond it). A host opens
 * `/arena new … round_seconds:1` and starts with nobody seated: three scripted seats play market_round
 * (seed 3) on the timer, and the host posts each round close to the channel faster than the bucket allows.
 *
 * Checks: the match ends with the final standings; every round close was posted once, in order; the posts
 * are words (offer terms, pitches, reasons), not action names; no private value reached the channel; and
 * the bot stayed within the limit: every post the host handed to the bot was accepted, once, in order,
 * and any 429 was followed by the same post accepted (discord.js's REST reads the bucket headers and waits).
 *
 * ARENA_WRITE_TRANSCRIPT=1 writes the channel's posts to docs/demo/discord-watch.txt.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Reply } from '../../../src/commands/types.js';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { DiscordEmulator, type EmulatorUser } from '../../emulators/discord.js';
import { assertToldInWords, leaksInPosts, statesOf, writeTranscript, type ChannelPost } from '../watch-checks.js';
import { payloadText, publicMessages, slash } from './helpers.js';

const TOKEN = 'MTIz.fake-discord-token.SECRET';
const host: EmulatorUser = { id: '310000000000000009', username: 'host' };
/** Discord's bucket for POST /channels/:id/messages: 5 per 5 s per channel. */
const LIMIT = { limit: 5, windowMs: 5000 };
const CHANNEL_POST = /^\/api\/v10\/channels\/(\d+)\/messages$/;

type Json = Record<string, unknown>;
const titleOf = (body: Json) => String((body['embeds'] as { title?: string }[] | undefined)?.[0]?.title ?? '');
const asPost = (body: Json): ChannelPost => ({ title: titleOf(body), text: payloadText(body) });

type Embed = {
  title?: string;
  description?: string;
  fields?: { name: string; value: string }[];
  image?: { url: string };
};
/** A message as a reader sees it, for the transcript: markdown escapes dropped, buttons by label, charts named. */
function shown(body: Json): ChannelPost {
  const plain = (t: string) => t.replace(/\\([\\`*_~|>#\-[\]()<@:.!+=])/g, '$1');
  const [first, ...more] = (body['embeds'] as Embed[] | undefined) ?? [];
  const lines = [
    String(body['content'] ?? ''),
    first?.title ?? '',
    first?.description ?? '',
    ...(first?.fields ?? []).flatMap((f) => [`**${f.name}**`, f.value]),
  ];
  if (first?.image) lines.push(`[chart: ${first.image.url.replace('attachment://', '')}]`);
  for (const e of more) lines.push(`[chart: ${e.title ?? e.image?.url ?? ''}]`);
  const buttons = ((body['components'] ?? []) as { components?: { label?: string }[] }[]).flatMap((r) =>
    (r.components ?? []).map((c) => `[${c.label ?? ''}]`),
  );
  if (buttons.length > 0) lines.push(buttons.join(' '));
  return { title: titleOf(body), text: plain(lines.filter((l) => l !== '').join('\n')) };
}

describe('discord emulator: the channel message bucket', () => {
  test('answers the 6th message within 5 s with 429, retry_after and the X-RateLimit-* headers', async () => {
    const emu = await new DiscordEmulator({ messageRateLimit: LIMIT }).start();
    try {
      const post = () =>
        fetch(`${emu.restApi}/v10/channels/${emu.channelId}/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bot ${TOKEN}` },
          body: JSON.stringify({ content: 'x' }),
        });
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await post());
      assert.deepEqual(
        answers.map((r) => r.status),
        [200, 200, 200, 200, 200, 429],
      );
      assert.deepEqual(
        answers.map((r) => r.headers.get('x-ratelimit-remaining')),
        ['4', '3', '2', '1', '0', '0'],
      );
      const limited = answers[5]!;
      assert.equal(limited.headers.get('x-ratelimit-limit'), '5');
      assert.equal(limited.headers.get('x-ratelimit-scope'), 'user');
      assert.ok(Number(limited.headers.get('retry-after')) >= 1);
      assert.ok(Number(limited.headers.get('x-ratelimit-reset-after')) > 0);
      const body = (await limited.json()) as { retry_after: number; global: boolean };
      assert.ok(body.retry_after > 0 && body.retry_after <= 5);
      assert.equal(body.global, false);
      assert.equal(emu.requests.length, 5, 'the refused message is not processed');
      assert.deepEqual(
        emu.rateLog.map((r) => r.status),
        [200, 200, 200, 200, 200, 429],
      );
    } finally {
      await emu.close();
    }
  });
});

describe('discord: a match of agents watched in a channel, within the rate limit', () => {
  const emu = new DiscordEmulator({ messageRateLimit: LIMIT });
  const logs: string[] = [];
  /** Public posts the host handed to the bot for the channel (timer round closes), in order. */
  const handed: string[] = [];
  let store: EventStore;
  let rt: DiscordRuntime;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    const logger = pino(
      { level: 'info' },
      new Writable({ write: (c: Buffer, _e, cb) => (logs.push(String(c)), cb()) }),
    );
    rt = await startDiscord({
      env: { DISCORD_TOKEN: TOKEN },
      store,
      logger,
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
    });
    // Spy on what the host publishes (the host calls this very object's publish), to compare with what arrived.
    const publish = rt.bot.publish;
    rt.bot.publish = async (channelId: string, reply: Reply) => {
      for (const p of reply.public) handed.push(p.title ?? '');
      return publish(channelId, reply);
    };
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await emu.close();
  });

  test('new round_seconds:1 and start with nobody seated play market_round to the final standings', async () => {
    const started = Date.now();
    await slash(emu, rt.bot, host, 'new', { task: 'market_round', seed: 3, round_seconds: 1 });
    const start = await slash(emu, rt.bot, host, 'start');
    assert.match(start.messages.map((m) => payloadText(m.body)).join('\n'), /Match started/);
    const matchId = (await rt.host.current(emu.channelId))?.id;
    const final = await emu.waitFor(
      (r) => r.method === 'POST' && CHANNEL_POST.test(r.path) && /^Match over/.test(titleOf(r.body as Json)),
      50_000,
    );
    const durationMs = Date.now() - started;
    await rt.host.idle();
    await rt.bot.idle();

    // What the channel shows: the public interaction answers (new, start), then the channel posts.
    const pub = publicMessages(emu).map((m) => asPost(m.body));
    assertToldInWords(pub);
    assert.ok(pub.some((p) => p.title === titleOf(final.body as Json)));

    // Nothing private: scanned against every state of the match, from the store.
    assert.ok(matchId, 'the match id');
    const states = await statesOf(store, matchId);
    assert.ok(states.at(-1)!.over, 'the stored match is over');
    assert.deepEqual(leaksInPosts(states, pub), []);

    // Within the rate limit: every handed post accepted exactly once, in order; every 429 retried unchanged.
    const accepted = emu.requests.filter((r) => r.method === 'POST' && CHANNEL_POST.test(r.path));
    assert.ok(
      accepted.length > LIMIT.limit,
      `more posts (${accepted.length}) than one bucket holds, so the limit mattered`,
    );
    assert.deepEqual(
      accepted.map((r) => titleOf(r.body as Json)),
      handed,
      'posts neither lost, duplicated nor reordered',
    );
    const refused = emu.rateLog.filter((r) => r.status === 429);
    for (const r of refused) {
      assert.ok(
        emu.rateLog.some((a) => a.status === 200 && a.seq > r.seq && JSON.stringify(a.body) === JSON.stringify(r.body)),
        'a refused post was sent again and accepted',
      );
    }
    assertWithinBuckets(emu.rateLog.filter((r) => r.status === 200).map((r) => r.at));

    const channelPosts = accepted.map((r) => asPost(r.body as Json));
    writeTranscript(
      'docs/demo/discord-watch.txt',
      {
        platform: 'Discord',
        command:
          '/arena new task:market_round seed:3 round_seconds:1, then /arena start (nobody seated: three scripted seats)',
        limit: '5 messages per 5 s per channel',
        posts: pub.length,
        limited: refused.length,
        durationMs,
      },
      publicMessages(emu).map((m) => shown(m.body)),
    );
    console.log(
      `discord watch: ${pub.length} public posts (${channelPosts.length} channel posts), ${refused.length} answered 429, ${(durationMs / 1000).toFixed(1)} s to the final post`,
    );
  });
});

/** Accepted channel posts fall into fixed windows of at most LIMIT.limit posts each (what the emulator enforces). */
function assertWithinBuckets(times: readonly number[]): void {
  let start = -Infinity;
  let count = 0;
  for (const t of times) {
    if (t >= start + LIMIT.windowMs) [start, count] = [t, 0];
    count += 1;
    assert.ok(count <= LIMIT.limit, `${count} posts within ${LIMIT.windowMs} ms`);
  }
}
