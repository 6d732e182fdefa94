/**
 * Ratings at small n: after 1, 2, 5 and 50 finished matches (single_trade, Alice and Bob taking turns
 * against scripted seats, through the real host on a SQLite file), every interval on every surface has
 * positive width, and every surface ranks the players the same way: the chat `leaderboard` and its chart,
 * the web page with its CSV and JSON downloads, and `npm run leaderboard` as JSON and CSV. After one match
 * the table orders the two players as the match's final standings do. The table is printed as diagnostics.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { runText } from '../../../src/commands/index.js';
import type { Caller } from '../../../src/chat/types.js';
import { dataNotice } from '../../../src/match/data-policy.js';
import { RoundHost } from '../../../src/host/index.js';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { buildWebApp, type WebApp } from '../../../src/web/app.js';
import { ResultsLoader } from '../../../src/analytics/ratings/load.js';
import { MIN_BOOTSTRAP_MATCHES } from '../../../src/analytics/ratings/intervals.js';
import { buildLeaderboard } from '../../../src/analytics/ratings/leaderboard.js';
import { settings } from '../../web/helpers.js';
import { spawnScript } from '../../adapters/console/spawn.js';

const CH = 'small-n';
const alice: Caller = { userId: 'test:alice', displayName: 'Alice', isAdmin: false };
const bob: Caller = { userId: 'test:bob', displayName: 'Bob', isAdmin: false };
const carol: Caller = { userId: 'test:carol', displayName: 'Carol', isAdmin: false };

/** A row as every surface can give it: kind and the rounded rating and bounds. */
type Row = string;
const row = (kind: string, rating: number, lo: number, hi: number): Row =>
  `${kind}|${Math.round(rating)}|${Math.round(lo)}|${Math.round(hi)}`;
const KIND: Record<string, string> = {
  person: 'person',
  LLM: 'llm',
  llm: 'llm',
  scripted: 'scripted',
  'LLM model': 'llm',
  'scripted policy': 'scripted',
};

interface JsonTable {
  rows: {
    rank: number;
    player: string;
    kind: string;
    rating: number;
    lo: number;
    hi: number;
    preliminary: boolean;
    interval: string;
    matches: number;
  }[];
  people: { rating: number; lo: number; hi: number; preliminary: boolean } | null;
  peopleVsModels: { lo: number; hi: number; winRate: number }[];
}

describe('ratings at 1, 2, 5 and 50 matches: positive widths, one ranking on every surface', () => {
  let dir = '';
  let db = '';
  let hostStore: EventStore;
  let webStore: EventStore;
  let host: RoundHost;
  let web: WebApp;
  let base = '';
  let played = 0;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'arena-small-n-'));
    db = join(dir, 'arena.db');
    hostStore = await openStore({ sqlitePath: db });
    // Fixed seeds give fixed worlds; this deployment counts such practice matches (config data.includeSeeded) on every surface.
    host = new RoundHost({
      store: hostStore,
      publish: async () => {},
      data: { includeSeeded: true, notice: dataNotice() },
    });
    webStore = await openStore({ sqlitePath: db });
    web = await buildWebApp(webStore, settings({}, { includeSeeded: true }));
    await web.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(web.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await web.app.close();
    await host.stop();
    await hostStore.close();
    await webStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Play single_trade matches until `n` have finished. */
  async function playTo(n: number): Promise<void> {
    for (; played < n; played++) {
      const who = played % 2 === 0 ? alice : bob;
      for (const text of [`new task:single_trade seed:${played + 1} round_seconds:0 votes:off`, 'join', 'start']) {
        const r = await runText(host, CH, who, text);
        assert.equal(r.error, undefined, `${text}: ${JSON.stringify(r.error)}`);
      }
      for (let i = 0; i < 10 && (await host.current(CH)); i++) await runText(host, CH, who, 'done');
      assert.equal(await host.current(CH), null, 'the match finished');
    }
  }

  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 200, path);
    return res.text();
  };
  /** `npm run leaderboard` into a file (a child's stdout may still be in the pipe when it exits). */
  const cli = async (format: 'json' | 'csv') => {
    const out = join(dir, `ratings.${format}`);
    const p = spawnScript('src/cli/leaderboard.ts', ['--db', db, '--format', format, '--out', out], {
      ARENA_INCLUDE_SEEDED: 'true',
    });
    assert.equal((await p.exited).code, 0, p.err());
    return readFileSync(out, 'utf8');
  };
  const csvRows = (csv: string): { rows: Row[]; people: Row | null } => {
    const [head, ...lines] = csv.trim().split('\n');
    const cols = head!.split(',');
    const at = (cells: string[], c: string) => cells[cols.indexOf(c)]!;
    const all = lines.map((l) => l.split(','));
    const rows = all
      .filter((c) => at(c, 'kind') !== 'people')
      .map((c) => row(at(c, 'kind'), Number(at(c, 'rating')), Number(at(c, 'lo')), Number(at(c, 'hi'))));
    const p = all.find((c) => at(c, 'kind') === 'people');
    return {
      rows,
      people: p ? row('people', Number(at(p, 'rating')), Number(at(p, 'lo')), Number(at(p, 'hi'))) : null,
    };
  };

  for (const n of [1, 2, 5, 50]) {
    test(`${n} match${n === 1 ? '' : 'es'}`, async (t) => {
      await playTo(n);
      // npm run leaderboard -- --format json: the numbers, unrounded.
      const json = JSON.parse(await cli('json')) as JsonTable;
      assert.ok(json.rows.length >= 2);
      for (const r of json.rows) {
        assert.ok(r.hi - r.lo > 1, `${r.player}: interval [${r.lo}, ${r.hi}] has positive width`);
        assert.ok(r.lo <= r.rating && r.rating <= r.hi);
        assert.equal(r.preliminary, r.matches < MIN_BOOTSTRAP_MATCHES, 'preliminary below the bootstrap minimum');
        if (r.preliminary) assert.equal(r.interval, 'model', "a preliminary rating has the model's interval");
      }
      assert.ok(
        json.people && json.people.hi - json.people.lo > 1,
        'the people aggregate has an interval of positive width',
      );
      for (const v of json.peopleVsModels)
        assert.ok(v.hi - v.lo > 0.01 && v.lo <= v.winRate && v.winRate <= v.hi, 'people vs a model: positive width');

      const expected = json.rows.map((r) => row(r.kind, r.rating, r.lo, r.hi));
      const people = row('people', json.people.rating, json.people.lo, json.people.hi);
      const ranks = json.rows.map((r) => r.rank);
      assert.deepEqual(
        ranks,
        [...ranks.keys()].map((i) => i + 1),
        'ranks 1, 2, …',
      );
      for (let i = 1; i < json.rows.length; i++)
        assert.ok(json.rows[i - 1]!.lo >= json.rows[i]!.lo, 'ranked by the lower bound');

      // npm run leaderboard -- --format csv.
      assert.deepEqual(csvRows(await cli('csv')), { rows: expected, people });
      // The web page and its downloads.
      assert.deepEqual(csvRows(await get('/leaderboard.csv')), { rows: expected, people });
      const webJson = JSON.parse(await get('/leaderboard.json')) as JsonTable;
      assert.deepEqual(
        webJson.rows.map((r) => row(r.kind, r.rating, r.lo, r.hi)),
        expected,
      );
      const page = await get('/leaderboard');
      const shown = [
        ...page.matchAll(
          /<tr><td>(\d+)<\/td><td>[^<]*(?:<span class="badge">preliminary<\/span>)?<\/td><td>([^<]+)<\/td><td class="num">(\d+)<\/td><td class="num">(\d+)–(\d+)<\/td>/g,
        ),
      ].map((m) => `${KIND[m[2]!]}|${m[3]}|${m[4]}|${m[5]}`);
      assert.deepEqual(shown, expected, 'the web page');
      const agg =
        /<tr class="aggregate"><td>—<\/td><td>People[^<]*(?:<span class="badge">preliminary<\/span>)?<\/td><td>people<\/td><td class="num">(\d+)<\/td><td class="num">(\d+)–(\d+)<\/td>/.exec(
          page,
        );
      assert.ok(agg, 'the web page shows people as one player');
      assert.equal(`people|${agg[1]}|${agg[2]}|${agg[3]}`, people);
      // Chat: the top 10 and the chart (in rank order, the aggregate last).
      const chat = await runText(host, CH, carol, 'leaderboard');
      const post = chat.public[0]!;
      const lines = [
        ...post.text.matchAll(/^(\d+)\. .+ \((person|LLM|scripted)\) \*\*(\d+)\*\* \[(\d+), (\d+)\]/gm),
      ].map((m) => `${KIND[m[2]!]}|${m[3]}|${m[4]}|${m[5]}`);
      assert.deepEqual(lines, expected.slice(0, 10), 'the chat leaderboard');
      const chart = post.charts![0]!.rows.map(
        (x) =>
          `${KIND[String(x['kind'])] ?? 'people'}|${Math.round(Number(x['rating']))}|${Math.round(Number(x['lo']))}|${Math.round(Number(x['hi']))}`,
      );
      assert.deepEqual(chart, [...expected.slice(0, 10), people], 'the chart');

      if (n === 1) {
        // One match: the table orders its two players as the match's final standings do.
        const { results } = await new ResultsLoader(hostStore).load({}, { includeSeeded: true });
        const standings = [...results[0]!.seats].sort((a, b) => a.rank - b.rank).map((s) => s.player.id);
        assert.deepEqual(
          buildLeaderboard(results).rows.map((r) => r.player.id),
          standings,
        );
      }
      for (const r of json.rows)
        t.diagnostic(
          `${n} matches: ${r.rank}. ${r.kind} ${r.player}: ${Math.round(r.rating)} [${Math.round(r.lo)}, ${Math.round(r.hi)}] ${r.interval}${r.preliminary ? ', preliminary' : ''}`,
        );
      t.diagnostic(
        `${n} matches: people as one player: ${Math.round(json.people.rating)} [${Math.round(json.people.lo)}, ${Math.round(json.people.hi)}]${json.people.preliminary ? ', preliminary' : ''}`,
      );
    });
  }
});
