/**
 * Scale-out on PostgreSQL, with the real entry points as separate processes: a Discord
 * shard manager (`--platform discord --shards auto`: discord.js's ShardingManager forks one bot process per
 * shard; the emulator recommends 2 and routes each guild to `(guild_id >> 22) % 2`) and a Slack bot
 * (Socket Mode), all on one PostgreSQL schema, against the local emulators. Matches run in a guild on
 * each shard and in a Slack channel; the shard-0 process is killed (SIGKILL) mid-round and respawned by the
 * manager. Checked: every acknowledged action is in the log; each round is closed exactly once (a timer
 * both Discord processes hold, and `done`s); the private update held before the kill is served by the new
 * process; the respawned process resumes only Discord matches; a stop signal ends every process.
 *
 * Needs TEST_DATABASE_URL (`source .ci/postgres.sh`); without it the test is skipped, except under CI.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPostgresStore, type KyselyEventStore } from '../../src/store/index.js';
import { replay, seatOfUser } from '../../src/match/replay.js';
import type { StoredEvent } from '../../src/events/schema.js';
import {
  DiscordEmulator,
  type Dispatched,
  type EmulatorUser,
  type Place,
  type RecordedRequest,
} from '../emulators/discord.js';
import { SlackEmulator } from '../emulators/slack.js';
import { answerOf, isEphemeral, payloadText } from '../adapters/discord/helpers.js';
import { alive, botEnv, startBot, type BotProcess } from './procs.js';
import { freshSchema, pgAdmin, withPostgres } from '../support/postgres.js';

const TOKEN = 'MTIz.scale-out.SECRET';
const BOT_TOKEN = 'xoxb-scale-out-SECRET-1';
const APP_TOKEN = 'xapp-1-scale-out-SECRET-2';
const SLACK_CHANNEL = 'C0SCALE';
const DRAIN_SECONDS = 2;
/** M1's round timer: long enough to restart shard 0 inside the round, short enough for a quick test. */
const TIMER_SECONDS = 20;

const alice: EmulatorUser = { id: '360000000000000001', username: 'alice' };
const bob: EmulatorUser = { id: '360000000000000002', username: 'bob' };
const carol: EmulatorUser = { id: '360000000000000003', username: 'carol' };
const dave: EmulatorUser = { id: '360000000000000004', username: 'dave' };
const erin = { id: 'U0ERIN', name: 'erin' };

const text = (r: RecordedRequest) => JSON.stringify(r.body);

withPostgres('scale-out: two Discord shards and a Slack bot on one PostgreSQL', (url) => {
  describe('scale-out: two Discord shards and a Slack bot on one PostgreSQL', () => {
    const schema = freshSchema('arena_scale');
    // Every process of the test uses this schema: libpq's `options` parameter sets its search_path.
    const dbUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const discord = new DiscordEmulator({ shards: 2, maxConcurrency: 16 });
    const slack = new SlackEmulator();
    let g0: Place;
    let g1: Place;
    let manager: BotProcess;
    let slackBot: BotProcess;
    let store: KyselyEventStore;

    before(async () => {
      await pgAdmin(`create schema ${schema}`);
      g0 = discord.addGuild(0);
      g1 = discord.addGuild(1);
      await discord.start();
      await slack.start();
      // Flat posting (no match threads): answers are read in the channel the command was typed in.
      const base = {
        DATABASE_URL: dbUrl,
        ARENA_SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS),
        ARENA_CHAT_THREADS: 'false',
      };
      manager = startBot(
        ['--platform', 'discord', '--shards', 'auto'],
        botEnv({ ...base, DISCORD_TOKEN: TOKEN, DISCORD_API_URL: discord.restApi }),
      );
      slackBot = startBot(
        ['--platform', 'slack'],
        botEnv({
          ...base,
          SLACK_MODE: 'socket',
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_APP_TOKEN: APP_TOKEN,
          SLACK_API_URL: slack.apiUrl,
        }),
      );
      await Promise.all([
        manager.logLine((l) => l.msg === 'discord shards: every shard is ready', 80_000),
        slack.socketConnected(),
      ]);
      store = await openPostgresStore({ connectionString: url, schema, maxConnections: 2 });
    });

    after(async () => {
      for (const p of [manager, slackBot]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
      for (const pid of shardPids()) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await store?.close();
      await discord.close();
      await slack.close();
      await pgAdmin(`drop schema if exists ${schema} cascade`);
    });

    /** Pids of every shard process the manager started. */
    const shardPids = (): number[] =>
      (manager?.logs() ?? [])
        .filter((l) => l.msg === 'discord shards: shard process started')
        .map((l) => Number(l.shardPid));

    /** `/arena <sub>` in a guild; resolves with the bot's answer once it arrived (reply, edit or follow-up). */
    async function ask(
      user: EmulatorUser,
      at: Place,
      sub: string,
      opts: Record<string, string | number> = {},
      expect?: RegExp,
    ): Promise<string> {
      const d = discord.dispatchSlash(
        user,
        'arena',
        sub,
        Object.entries(opts).map(([name, value]) => ({ name, type: typeof value === 'number' ? 4 : 3, value })),
        at,
      );
      return answered(d, expect);
    }

    /** Resolves once the bot answered `d` (a reply, edit or follow-up; with `expect`, one matching it); all answers so far. */
    async function answered(d: Dispatched, expect?: RegExp): Promise<string> {
      const answer = (r: RecordedRequest) =>
        r.path.includes(d.token) &&
        (r.method === 'PATCH' ||
          (r.method === 'POST' && r.path.includes('/webhooks/')) ||
          (r.path.endsWith('/callback') && [4, 7, 9].includes((r.body as { type: number }).type))) &&
        (!expect || expect.test(text(r)));
      await discord.waitFor(answer, 60_000);
      return discord.forInteraction(d).map(text).join('\n');
    }

    /**
     * `/arena <text>` in the Slack channel; resolves once a post for it (response_url or chat.post*) matches
     * `expect` (channel posts go out through a per-channel queue, so an earlier command's may come first).
     */
    async function slackAsk(line: string, expect: RegExp): Promise<string> {
      const from = slack.requests.length;
      const req = slack.slashCommand(erin, SLACK_CHANNEL, line);
      await slack.sendEnvelope(req, { timeoutMs: 60_000 });
      const isAnswer = (x: { path: string; body: unknown }) =>
        (x.path === `/response/${req.responseId}` || /chat\.post(Message|Ephemeral)/.test(x.path)) &&
        expect.test(JSON.stringify(x.body));
      return JSON.stringify(
        (await slack.waitFor((x) => slack.requests.indexOf(x) >= from && isAnswer(x), 60_000)).body,
      );
    }

    const matchIn = async (channelId: string) => (await store.listMatches({ channelId })).at(-1)!;
    const events = async (channelId: string): Promise<StoredEvent[]> => store.load((await matchIn(channelId)).id);
    /** round → how many `round_closed` events the log holds for it. */
    const closesByRound = (evs: StoredEvent[]) => {
      const out = new Map<number, number>();
      for (const e of evs) if (e.body.type === 'round_closed') out.set(e.body.round, (out.get(e.body.round) ?? 0) + 1);
      return out;
    };

    test(
      'matches on both shards and in Slack, shard 0 killed and respawned mid-round: nothing lost, one close per round, the private update served',
      { timeout: 150_000 },
      async () => {
        const t0 = performance.now();
        assert.deepEqual(
          discord.identifies.map((d) => JSON.stringify(d.shard)).sort(),
          ['[0,2]', '[1,2]'],
          'one IDENTIFY per shard',
        );
        const pids0 = shardPids();
        assert.equal(pids0.length, 2, 'two shard processes');

        // M0 in guild 0 (shard 0): alice and bob; rounds close with `done`.
        await ask(alice, g0, 'new', { task: 'market_round', seed: 21, round_seconds: 0 });
        await ask(bob, g0, 'join');
        await ask(alice, g0, 'join');
        await ask(alice, g0, 'start', {}, /Match started/);
        // M1 in guild 1 (shard 1): carol and dave; rounds close by the timer.
        await ask(carol, g1, 'new', { task: 'market_round', seed: 22, round_seconds: TIMER_SECONDS });
        await ask(dave, g1, 'join');
        await ask(carol, g1, 'join');
        await ask(carol, g1, 'start', {}, /Match started/);
        // M2 in Slack: erin against scripted seats; her `done` closes round 1.
        await slackAsk('new task:market_round seed:23 round_seconds:0', /join/i);
        await slackAsk('join', /erin/);
        await slackAsk('start', /Match started/);
        await slackAsk(
          'pitch text:"Slack lab needs two 8-GPU blocks for a week of fine-tuning."',
          /Slack lab needs two 8-GPU blocks/,
        );
        await slackAsk('done', /Round 1\/\d+ closed/);

        // Acknowledged actions, each checked in the log at the end.
        const m0 = replay(await events(g0.channelId))!;
        const bobLab = seatOfUser(m0, `discord:${bob.id}`)!;
        assert.match(
          await ask(alice, g0, 'pitch', { text: 'Lab of alice needs steady capacity for a long pretraining run.' }),
          /pitch/i,
        );
        assert.ok(!/error/i.test(await ask(alice, g0, 'message', { to: bobLab, text: 'meet me at the auction, bob' })));
        assert.match(
          await ask(carol, g1, 'pitch', { text: 'Lab of carol argues for the inference job that settles first.' }),
          /pitch/i,
        );
        assert.ok(!/error/i.test(await ask(dave, g1, 'message', { text: 'dave is buying small blocks' })));

        // Shard 0's process dies mid-round (SIGKILL: no drain at all); the manager respawns it.
        const victim = manager
          .logs()
          .filter((l) => l.msg === 'discord shards: shard process started' && l.shard === 0)
          .at(-1)!;
        process.kill(Number(victim.shardPid), 'SIGKILL');
        await manager.logLine((l) => l.msg === 'discord shards: shard process exited' && l.shard === 0);
        const respawned = await manager.logLine(
          (l) => l.msg === 'discord shards: shard process started' && l.shard === 0 && l.shardPid !== victim.shardPid,
        );
        const restored = await manager.logLine(
          (l) => l.msg === 'round host restored matches' && l.pid === respawned.shardPid,
          60_000,
        );
        await manager.logLine((l) => l.msg === 'discord: ready' && l.pid === respawned.shardPid, 60_000);
        assert.equal(restored.count, 2, 'the new shard-0 process resumed the two Discord matches, not the Slack one');
        assert.equal(
          discord.identifies.filter((d) => JSON.stringify(d.shard) === '[0,2]').length,
          2,
          'shard 0 identified again',
        );

        // bob's private update, held by the killed process, is served by the new one.
        const pressed = discord.dispatchButton(bob, 'arena-inbox', undefined, g0);
        await answered(pressed, /meet me at the auction, bob/);
        const shown = answerOf(discord, pressed).messages;
        assert.ok(
          shown.some((m) => /meet me at the auction, bob/.test(payloadText(m.body))),
          "alice's private message",
        );
        assert.ok(
          shown.some((m) => /You play/.test(payloadText(m.body))),
          "bob's brief from the start, held as long",
        );
        assert.ok(
          shown.every((m) => isEphemeral(m.body)),
          'ephemeral',
        );
        assert.match(
          await answered(discord.dispatchButton(bob, 'arena-inbox', undefined, g0)),
          /Nothing new/,
          'shown once',
        );

        // M0 goes on in the new process: bob talks, both say done, round 1 closes.
        assert.ok(!/error/i.test(await ask(bob, g0, 'message', { text: 'bob is back after the restart' })));
        await ask(alice, g0, 'done');
        assert.match(await ask(bob, g0, 'done', {}, /Round 1\/\d+ closed/), /Round 1\/\d+ closed/);

        // M1's timer fires in both Discord processes (shard 1's, and the respawned shard 0's that restored it).
        const m1 = await matchIn(g1.channelId);
        await discord.waitFor(
          (r) =>
            r.method === 'POST' &&
            r.path === `/api/v10/channels/${g1.channelId}/messages` &&
            /Round 1\/\d+ closed/.test(text(r)),
          (TIMER_SECONDS + 40) * 1000,
        );
        // carol's private results of the timer close are served to her by shard 1.
        assert.doesNotMatch(await answered(discord.dispatchButton(carol, 'arena-inbox', undefined, g1)), /Nothing new/);

        // Nothing acknowledged is lost; no round was closed twice.
        const all = { m0: await events(g0.channelId), m1: await store.load(m1.id), m2: await events(SLACK_CHANNEL) };
        const actions = Object.values(all)
          .flat()
          .flatMap((e) => (e.body.type === 'action' ? [JSON.stringify(e.body.action)] : []));
        for (const said of [
          'Lab of alice needs steady capacity',
          'meet me at the auction, bob',
          'Lab of carol argues',
          'dave is buying small blocks',
          'bob is back after the restart',
          'Slack lab needs two 8-GPU blocks',
        ]) {
          assert.ok(
            actions.some((a) => a.includes(said)),
            `acknowledged "${said}" is in the log`,
          );
        }
        for (const [name, evs] of Object.entries(all)) {
          const closes = closesByRound(evs);
          assert.ok(closes.get(0) === 1, `${name}: round 1 closed once (${JSON.stringify([...closes])})`);
          assert.ok(
            [...closes.values()].every((n) => n === 1),
            `${name}: no round closed twice (${JSON.stringify([...closes])})`,
          );
        }
        const channelPosts = discord.requests.filter(
          (r) =>
            r.method === 'POST' &&
            r.path === `/api/v10/channels/${g1.channelId}/messages` &&
            /Round 1\/\d+ closed/.test(text(r)),
        );
        assert.equal(channelPosts.length, 1, "M1's round-1 close was posted once");
        console.log(
          `scale-out: ${Math.round(performance.now() - t0)} ms from ready to checked; shard pids ${pids0.join(',')} → ${String(respawned.shardPid)}`,
        );

        if (process.env.DUMP_SCALE)
          for (const p of [manager, slackBot])
            console.log(
              p
                .logs()
                .filter((l) => Number(l.level) >= 40)
                .map((l) => JSON.stringify(l))
                .join('\n'),
            );
        // A stop signal ends every process: the manager drains its shards, the Slack bot drains itself.
        const pids = shardPids();
        manager.child.kill('SIGTERM');
        slackBot.child.kill('SIGTERM');
        const [mExit, sExit] = await Promise.all([manager.exited, slackBot.exited]);
        assert.equal(mExit.code, 0, manager.output().slice(-2000));
        assert.equal(sExit.code, 0, slackBot.output().slice(-2000));
        assert.ok(
          pids.every((pid) => !alive(pid)),
          'no shard process is left',
        );
        assert.equal(
          manager.logs().find((l) => l.msg === 'discord shards: stopped')?.inTime,
          true,
          'every shard drained in time',
        );
        const drained = manager
          .logs()
          .filter((l) => l.msg === 'discord: drained, closing the store')
          .map((l) => l.pid);
        assert.deepEqual(
          drained.sort(),
          pids.filter((pid) => pid !== Number(victim.shardPid)).sort(),
          'each live shard drained itself',
        );
        for (const p of [manager, slackBot])
          assert.ok(
            !p.output().includes(TOKEN) && !p.output().includes(BOT_TOKEN) && !p.output().includes(APP_TOKEN),
            'no token in the logs',
          );
      },
    );
  });
});
