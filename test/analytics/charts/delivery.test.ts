/**
 * The final post of a match carries the standings chart on every platform: a person plays single_trade
 * (3 rounds, no timer) against a scripted seat through the real discord.js Client and the real Bolt app
 * against the local emulators, and through the console. Asserted where the bytes arrive: Discord's
 * multipart attachment, Slack's files.getUploadURLExternal → upload → files.completeUploadExternal, the
 * console's PNG file. Each PNG is decoded (size, ink) and equals the chart rendered from the stored match,
 * whose SVG names the seats.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import { renderChart } from '../../../src/analytics/charts/request.js';
import { standingsChart } from '../../../src/present/charts.js';
import { runConsole } from '../../../src/adapters/console/session.js';
import { dataNotice } from '../../../src/match/data-policy.js';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { startSlack, type StartedSlack } from '../../../src/app/slack.js';
import { replay } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { DiscordEmulator, type EmulatorUser } from '../../emulators/discord.js';
import { SlackEmulator, sendSigned } from '../../emulators/slack.js';
import { slash } from '../../adapters/discord/helpers.js';
import { BOT_TOKEN, SIGNING_SECRET, alice } from '../../adapters/slack/helpers.js';
import { decodePng, inkShare, svgSize } from './png.js';

const quiet = () => pino({ level: 'silent' });

/** The standings chart rendered from the stored, finished match (PNG + SVG) and its seat names. */
async function expectedChart(store: EventStore, matchId: string) {
  const m = replay(await store.load(matchId));
  assert.ok(m?.state && m.phase === 'over', 'the match is over');
  const chart = await renderChart(standingsChart(m));
  return { chart, seats: m.state.labIds.map((l) => m.state!.labs[l]!.publicName) };
}

/** The PNG is the expected one: right size, not blank; its SVG names every seat. */
function assertStandingsPng(png: Buffer, expected: Awaited<ReturnType<typeof expectedChart>>, where: string) {
  const img = decodePng(png);
  const size = svgSize(expected.chart.svg);
  assert.equal(img.width, size.width * 2, `${where}: width`);
  assert.equal(img.height, size.height * 2, `${where}: height`);
  assert.ok(inkShare(img) > 0.02, `${where}: not blank`);
  assert.ok(png.equals(expected.chart.png), `${where}: the standings chart of the stored match`);
  for (const s of expected.seats) assert.ok(expected.chart.svg.includes(s), `${where}: ${s} in the SVG`);
  assert.match(expected.chart.svg, /scripted: /, 'the scripted seat is named (the match is over)');
}

describe('the final post carries the standings chart', () => {
  test('Discord: a multipart message with standings.png, shown as the embed image', async () => {
    const emu = await new DiscordEmulator().start();
    const store = await openStore({ sqlitePath: ':memory:' });
    const rt: DiscordRuntime = await startDiscord({
      env: { DISCORD_TOKEN: 'MTIz.fake.SECRET' },
      store,
      logger: quiet(),
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
    });
    try {
      const ada: EmulatorUser = { id: '310000000000000009', username: 'ada' };
      await slash(emu, rt.bot, ada, 'new', { task: 'single_trade', seed: 5, round_seconds: 0 });
      await slash(emu, rt.bot, ada, 'join');
      await slash(emu, rt.bot, ada, 'start');
      const matchId = (await rt.host.current(emu.channelId))!.id;
      for (let i = 0; i < 3; i++) await slash(emu, rt.bot, ada, 'done');
      await rt.host.idle();
      const withFiles = emu.requests.filter((r) => r.files?.some((f) => f.name === 'standings.png'));
      assert.equal(withFiles.length, 1, 'one message carries the standings chart');
      const req = withFiles[0]!;
      const body = req.body as {
        embeds: { title?: string; image?: { url: string } }[];
        attachments?: { filename: string }[];
      };
      assert.equal(body.embeds[0]?.title, 'Match over: final leaderboard');
      assert.equal(body.embeds[0]?.image?.url, 'attachment://standings.png');
      assert.ok(
        body.embeds.some((e) => e.image?.url === 'attachment://reward-breakdown.png'),
        'the breakdown chart rides along',
      );
      assert.deepEqual(
        req.files!.map((f) => f.name),
        ['standings.png', 'reward-breakdown.png'],
      );
      assert.equal(req.files![0]!.contentType, 'image/png');
      assertStandingsPng(req.files![0]!.data, await expectedChart(store, matchId), 'discord');
    } finally {
      await rt.stop();
      await store.close();
      await emu.close();
    }
  });

  test('Slack: files.uploadV2 — getUploadURLExternal, the upload, completeUploadExternal to the channel', async () => {
    const emu = new SlackEmulator();
    await emu.start();
    const store = await openStore({ sqlitePath: ':memory:' });
    const slack: StartedSlack = await startSlack({
      env: { SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: emu.apiUrl },
      store,
      logger: quiet(),
      port: 0,
      listenHost: '127.0.0.1',
      clientOptions: { retryConfig: { retries: 0 } },
      postIntervalMs: 0,
    });
    const channel = 'C0CHART';
    const target = { url: `http://127.0.0.1:${slack.port}/slack/events`, signingSecret: SIGNING_SECRET };
    const run = async (text: string) => {
      const res = await sendSigned(target, emu.slashCommand(alice, channel, text));
      assert.equal(res.status, 200);
      await slack.bot.idle();
    };
    try {
      await run('new task:single_trade seed:5 round_seconds:0');
      await run('join');
      await run('start');
      const matchId = (await slack.host.current(channel))!.id;
      for (let i = 0; i < 3; i++) await run('done');
      await slack.host.idle();
      await slack.bot.idle();
      const urls = emu.calls('files.getUploadURLExternal');
      assert.deepEqual(
        urls.map((r) => r.body['filename']),
        ['standings.png', 'reward-breakdown.png'],
      );
      const uploads = emu.calls('upload');
      assert.equal(uploads.length, 2);
      const completes = emu.calls('files.completeUploadExternal');
      assert.equal(completes.length, 2);
      for (const c of completes) assert.equal(c.body['channel_id'], channel, 'posted to the match channel');
      const files = completes.flatMap((c) => c.body['files'] as { id: string; title: string }[]);
      assert.ok(files.some((f) => /^Standings over rounds/.test(f.title)));
      // The upload that completed as the standings file carries its bytes.
      const upload = uploads.find((u) => files.some((f) => f.id === u.body['fileId'] && /^Standings/.test(f.title)))!;
      assert.ok(upload?.raw, 'the standings upload arrived');
      assert.match(String(upload.body['contentType']), /multipart\/form-data/, 'WebClient posts the bytes as a form');
      assert.equal(
        Number(urls.find((r) => r.body['filename'] === 'standings.png')!.body['length']),
        upload.raw.length,
        'length announced = bytes uploaded',
      );
      assertStandingsPng(upload.raw, await expectedChart(store, matchId), 'slack');
      // The chart follows its text post: the final leaderboard was posted before the first upload URL was asked for.
      const final = emu
        .calls('chat.postMessage')
        .find((r) => String(r.body['text']).includes('Match over: final leaderboard'));
      assert.ok(final && final.seq < urls[0]!.seq);
    } finally {
      await slack.stop();
      await store.close();
      await emu.close();
    }
  });

  test('console: the PNG is written under the charts directory and its path printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'charts-'));
    const store = await openStore({ sqlitePath: ':memory:' });
    try {
      const input = new PassThrough();
      let out = '';
      const output = new Writable({ write: (c: Buffer, _e, cb) => ((out += String(c)), cb()) });
      input.end('done\ndone\ndone\n');
      const code = await runConsole({
        store,
        input,
        output,
        interactive: false,
        color: false,
        task: 'single_trade',
        seed: 5,
        roundSeconds: 0,
        chartsDir: dir,
        data: { includeSeeded: true, notice: dataNotice() },
      });
      assert.equal(code, 0);
      const paths = [...out.matchAll(/^\[#arena\] chart: (.+)$/gm)].map((m) => m[1]!);
      assert.equal(paths.length, 2, out.slice(-2000));
      assert.ok(paths[0]!.endsWith('-standings.png') && paths[1]!.endsWith('-reward-breakdown.png'));
      assert.ok(out.indexOf('Match over: final leaderboard') < out.indexOf('chart: '), 'the text comes first');
      const [rec] = await store.listMatches({ status: 'over' });
      assertStandingsPng(readFileSync(paths[0]!), await expectedChart(store, rec!.id), 'console');
      assert.match(
        out,
        /Rating changes/,
        'the rating change follows the final post (seed 5 is practice, counted here by data.includeSeeded)',
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
