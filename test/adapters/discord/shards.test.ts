/**
 * Discord sharding in one test process (scale-out): two real discord.js Clients, shard 0 and
 * shard 1 of 2, each with its own round host and its own store connection on one SQLite file (two "bot
 * processes"), against an emulator that reports 2 shards and routes each guild's events to
 * `(guild_id >> 22) % 2`. Each guild's interactions reach only its shard; shard 0 is restarted with a
 * private post held for bob, and the new shard-0 client serves it from the store; a round of a shard-1
 * guild closed by the other process is posted to that guild's channel over REST, closed exactly once when
 * both race, and its private results are served by shard 1. The multi-process version on PostgreSQL is
 * test/scale/scale-out.test.ts.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { openSqliteStore, type EventStore } from '../../../src/store/index.js';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { DiscordEmulator, shardOfGuild, type EmulatorUser, type Place } from '../../emulators/discord.js';
import { answerOf, isEphemeral, payloadText, type Answer } from './helpers.js';

const TOKEN = 'MTIz.shards-test.SECRET';
const alice: EmulatorUser = { id: '350000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '350000000000000002', username: 'bob' };
const carol: EmulatorUser = { id: '350000000000000003', username: 'carol' };
const file = join(mkdtempSync(join(tmpdir(), 'arena-shards-')), 'arena.db');

interface Shard {
  rt: DiscordRuntime;
  store: EventStore;
  /** Interaction ids this shard's client answered (from its log). */
  answered: Set<string>;
}

describe('discord: two shards, one database', () => {
  const emu = new DiscordEmulator({ shards: 2, maxConcurrency: 2 });
  let g0: Place;
  let g1: Place;
  const shards: Shard[] = [];

  async function startShard(id: number): Promise<Shard> {
    const store = await openSqliteStore(file);
    const answered = new Set<string>();
    const logger = pino(
      { level: 'info' },
      new Writable({
        write: (c: Buffer, _e, cb) => {
          for (const line of String(c).split('\n').filter(Boolean)) {
            const l = JSON.parse(line) as { msg?: string; interaction?: string };
            if (l.msg === 'discord: command answered' && l.interaction) answered.add(l.interaction);
          }
          cb();
        },
      }),
    );
    const rt = await startDiscord({
      env: { DISCORD_TOKEN: TOKEN },
      store,
      logger,
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
      shards: { ids: [id], count: 2 },
      hostOptions: { autoDone: false },
    });
    return { rt, store, answered };
  }

  async function ask(
    s: Shard,
    user: EmulatorUser,
    at: Place,
    sub: string,
    opts: Record<string, string | number> = {},
  ): Promise<Answer> {
    const d = emu.dispatchSlash(
      user,
      'arena',
      sub,
      Object.entries(opts).map(([name, value]) => ({ name, type: typeof value === 'number' ? 4 : 3, value })),
      at,
    );
    await s.rt.bot.handled(d.id);
    return answerOf(emu, d);
  }

  async function inbox(s: Shard, user: EmulatorUser, at: Place): Promise<Answer> {
    const d = emu.dispatchButton(user, 'arena-inbox', undefined, at);
    await s.rt.bot.handled(d.id);
    return answerOf(emu, d);
  }

  before(async () => {
    g0 = emu.addGuild(0);
    g1 = emu.addGuild(1);
    await emu.start();
    shards.push(await startShard(0), await startShard(1));
  });
  after(async () => {
    for (const s of shards) {
      await s.rt.stop();
      await s.store.close();
    }
    await emu.close();
  });

  test('each guild reaches its shard; a restarted shard serves what the old one held; a cross-shard close is posted once', async () => {
    assert.equal(shardOfGuild(g0.guildId, 2), 0);
    assert.equal(shardOfGuild(g1.guildId, 2), 1);
    assert.deepEqual(
      emu.identifies.map((d) => d.shard).sort(),
      [
        [0, 2],
        [1, 2],
      ],
      'one IDENTIFY per shard',
    );
    const [s0, s1] = shards as [Shard, Shard];

    // Guild 0 (shard 0): a match whose start holds bob's brief for him.
    await ask(s0, alice, g0, 'new', { task: 'market_round', seed: 3, round_seconds: 0 });
    await ask(s0, bob, g0, 'join');
    await ask(s0, alice, g0, 'join');
    const started = await ask(s0, alice, g0, 'start');
    assert.ok(
      started.messages.some((m) => JSON.stringify(m.body).includes('arena-inbox')),
      'a post waits for bob',
    );

    // Guild 1 (shard 1): carol's match.
    const g1Asks = [
      await ask(s1, carol, g1, 'new', { task: 'market_round', seed: 4, round_seconds: 0 }),
      await ask(s1, carol, g1, 'join'),
      await ask(s1, carol, g1, 'start'),
    ];
    assert.ok(
      g1Asks.every((a) => s1.answered.has(a.d.id) && !s0.answered.has(a.d.id)),
      'guild 1 went to shard 1 only',
    );
    assert.ok(
      [...s0.answered].every((id) => !s1.answered.has(id)),
      'guild 0 went to shard 0 only',
    );

    // Restart shard 0: a new client and host on a new store connection.
    await s0.rt.stop();
    await s0.store.close();
    const s0b = await startShard(0);
    shards[0] = s0b;
    const held = await inbox(s0b, bob, g0);
    assert.ok(held.messages.length >= 1 && held.messages.every((m) => isEphemeral(m.body)));
    assert.match(
      held.messages.map((m) => payloadText(m.body)).join('\n'),
      /You play/,
      "bob's brief, held by the old shard 0, served by the new one",
    );
    assert.match(payloadText((await inbox(s0b, bob, g0)).messages[0]!.body), /Nothing new/, 'shown once');

    // Both processes close guild 1's round at once (two timers): one close, posted by whoever won.
    const g1Match = (await s1.rt.host.current(g1.channelId))!;
    const before = emu.requests.length;
    const [r0, r1] = await Promise.all([
      s0b.rt.host.closeRoundNow(g1Match.id, 'timer', 0),
      s1.rt.host.closeRoundNow(g1Match.id, 'timer', 0),
    ]);
    assert.equal([r0, r1].filter((r) => r !== null).length, 1, 'one closer');
    const closes = (await s1.store.load(g1Match.id)).filter((e) => e.body.type === 'round_closed');
    assert.equal(closes.length, 1, 'one round_closed event');
    const postedTo = (from: number) =>
      emu.requests
        .slice(from)
        .filter((r) => r.method === 'POST' && r.path === `/api/v10/channels/${g1.channelId}/messages`)
        .map((r) => payloadText(r.body as Record<string, unknown>));
    assert.ok(
      postedTo(before).some((t) => /Round 1\/\d+ closed/i.test(t)),
      "the close reached guild 1's channel",
    );

    // The next round closed by shard 0's process alone: it posts to a channel of a guild it does not have.
    const before2 = emu.requests.length;
    assert.ok(await s0b.rt.host.closeRoundNow(g1Match.id, 'timer', 1));
    assert.ok(
      postedTo(before2).some((t) => /Round 2\/\d+ closed/i.test(t)),
      "shard 0 posted round 2's close in guild 1 over REST",
    );

    // carol's private results of that close wait in the store; shard 1 serves them.
    const results = await inbox(s1, carol, g1);
    assert.ok(results.messages.every((m) => isEphemeral(m.body)));
    assert.doesNotMatch(payloadText(results.messages[0]!.body), /Nothing new/, 'the round results were held for carol');
  });
});
