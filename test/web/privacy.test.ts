/**
 * Privacy of the web page: every page and the event stream of a live match, scanned for the seats' private
 * values (budgets, job values, job hours and deadlines, the seed before the end) and for the judge's scores
 * while a ballot is open: none appear. Player-written HTML in pitches, messages and names renders as text.
 * Also: the security headers (strict CSP), the admin-only exports, the stream caps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { jobValue } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/types.js';
import { ADMIN_TOKEN, alice, bob, CHANNEL, webHarness, type WebHarness } from './helpers.js';
import { waitUntil } from '../support/wait.js';

/** Every private number of a state as printed (2 dp): budgets, job values, realised values. */
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

const SEED = 48213;

/** Read an event stream for a while: the text it sent (the stream is cancelled when `until` holds or after `ms`). */
async function readStream(
  url: string,
  until: (text: string) => boolean,
  headers: Record<string, string> = {},
  ms = 8000,
): Promise<{ status: number; text: string }> {
  const ac = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: ac.signal });
  if (!res.ok || !res.body) return { status: res.status, text: await res.text() };
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let text = '';
  const end = Date.now() + ms;
  try {
    while (!until(text) && Date.now() < end) {
      let timer: NodeJS.Timeout | undefined;
      const r = await Promise.race([
        reader.read(),
        new Promise<null>((ok) => (timer = setTimeout(() => ok(null), Math.max(1, end - Date.now())))),
      ]);
      clearTimeout(timer);
      if (!r || r.done) break;
      text += dec.decode(r.value, { stream: true });
    }
  } finally {
    ac.abort();
  }
  return { status: res.status, text };
}

describe('web page privacy', () => {
  let h: WebHarness;
  let id: string;
  const secrets = new Set<string>();
  const pages: string[] = [];
  const verdicts = new Map<string, string[]>();
  before(async () => {
    h = await webHarness();
  });
  after(async () => h.close());

  const collect = async (paths: string[]) => {
    for (const p of paths) {
      const r = await fetch(h.base + p);
      pages.push(`${p}\n${await r.text()}`);
    }
  };
  const note = async () => {
    const m = await h.host.current(CHANNEL);
    if (m?.state) privateNumbers(m.state, secrets);
  };

  test('a live match with offers, pitches, messages, allocations and a ballot shows no private value', async () => {
    await h.run(alice, `new task:market_round seed:${SEED} round_seconds:0 votes:on`);
    await h.run(alice, 'join lab:lab_0');
    await h.run({ ...bob, displayName: '<img src=x onerror=alert(2)>Bob' }, 'join lab:lab_1');
    await h.run(alice, 'start');
    id = (await h.current()).id;
    const stream = readStream(`${h.base}/matches/${id}/events`, (t) => t.includes('Round 2/5 closed'), {}, 20_000);
    for (let round = 0; round < 2; round++) {
      await note();
      const m = await h.current();
      const s = m.state!;
      for (const [who, lab, other] of [
        [alice, 'lab_0', 'lab_1'],
        [bob, 'lab_1', 'lab_0'],
      ] as const) {
        const job = Object.values(s.jobs).find((j) => j.owner === lab && j.outcome === 'pending');
        const mine = Object.values(s.blocks).find((b) => b.owner === lab && b.status === 'available');
        const theirs = Object.values(s.blocks).find((b) => b.owner === other && b.status === 'available');
        await h.run(
          who,
          `pitch text:"<b>Our</b> job needs capacity soon, <script>alert(3)</script> please"${job ? ` job:${job.id}` : ''}`,
        );
        if (theirs) await h.run(who, `offer to:${other} want:${theirs.id} pay:3 msg:"<i>fair</i> deal"`);
        if (job && mine) await h.run(who, `allocate job:${job.id} blocks:${mine.id}`);
        await h.run(who, `message text:"hello from ${lab} <svg onload=alert(4)>"`);
        await h.run(who, `message to:${other} text:"a private word"`);
        await note();
      }
      await collect(['/', `/matches/${id}`, '/demo']);
      await h.run(alice, 'done');
      await h.run(bob, 'done');
      await note();
      // The ballot on this round's pitches is open now: its verdict must not show anywhere.
      const open = (await h.current()).ballots.find((b) => b.closed === null);
      assert.ok(open?.judge, 'a ballot is open on judged pitches');
      const scores = open.judge.scores.map((x) => `${x.score.toFixed(2)} (need ${x.parts.need.toFixed(2)}`);
      verdicts.set(open.id, scores);
      const first = pages.length;
      await collect(['/', `/matches/${id}`, '/demo', '/leaderboard', '/preferences', `/matches/${id}/replay`]);
      const now = pages.slice(first).join('\n');
      assert.deepEqual(
        scores.filter((x) => now.includes(x)),
        [],
        `the judge's scores of ${open.id} while it is open`,
      );
      assert.doesNotMatch(now, new RegExp(`Ballot ${open.id} closed`));
    }
    const streamed = await stream;
    assert.equal(streamed.status, 200);
    assert.match(streamed.text, /Round 2\/5 closed/, 'the stream carried the round closes');
    const all = [...pages, streamed.text].join('\n');
    assert.ok(secrets.size > 5);
    const leaks = [...secrets].filter((v) => all.includes(v));
    assert.deepEqual(leaks, [], 'private numbers on the page or in the stream');
    const hint = /needs \d+(\.\d+)? GPU-h|by the end of round|deadlineRound|Budget \d/i.exec(all);
    assert.equal(
      hint ? all.slice(Math.max(0, hint.index - 300), hint.index + 100) : null,
      null,
      'job hours, deadlines or budgets',
    );
    assert.doesNotMatch(all, new RegExp(`\\b${SEED}\\b`), 'the seed stays hidden until the end');
    // In the stream, a round's scores come only with its ballot's close (v_1 closes with round 2; v_2 is still open).
    for (const [ballot, scores] of verdicts) {
      const beforeClose = streamed.text.split(`Ballot ${ballot} closed`)[0]!;
      assert.deepEqual(
        scores.filter((x) => beforeClose.includes(x)),
        [],
        `${ballot}'s scores streamed before it closed`,
      );
    }
    assert.doesNotMatch(streamed.text, /Ballot v_2 closed/);
    assert.doesNotMatch(all, /a private word/, 'direct messages are private');
    assert.doesNotMatch(all, /test:alice|test:bob/, 'platform user ids never reach a page');
    // Player-written HTML is text: escaped, never markup.
    assert.doesNotMatch(all, /<script>alert|<img src=x|<svg onload|<b>Our|<i>fair/);
    assert.match(all, /&lt;script&gt;alert\(3\)&lt;\/script&gt;/);
    assert.match(all, /&lt;img src=x onerror=alert\(2\)&gt;Bob/);
  });

  test('after the ballot closes and the match ends, the verdict and the seed are public', async () => {
    for (let i = 0; i < 5; i++) {
      const m = await h.host.current(CHANNEL);
      if (!m || m.phase !== 'running') break;
      await h.run(alice, 'done');
      await h.run(bob, 'done');
    }
    const over = await h.webStore.getMatch(id);
    assert.equal(over?.status, 'over');
    const page = await (await fetch(`${h.base}/matches/${id}`)).text();
    assert.match(page, /Ballot v_1 closed/);
    assert.match(page, /\d\.\d\d \(need \d/, 'the judge scores of round 1 once its ballot closed');
    assert.match(page, new RegExp(`Seed ${SEED}`));
  });

  test('headers: strict CSP, no inline script or style, nosniff, no framing', async () => {
    const r = await fetch(`${h.base}/`);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /style-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
    for (const p of pages)
      assert.doesNotMatch(p, /<script>(?!alert)|<style|style="| on[a-z]+="/i, 'no inline script, style or handler');
  });

  test('preference exports only with the admin token', async () => {
    assert.equal((await fetch(`${h.base}/preferences/export?format=jsonl`)).status, 401);
    assert.equal(
      (
        await fetch(`${h.base}/preferences/export?format=jsonl`, {
          headers: { authorization: 'Bearer wrong-token-0123456789abcd' },
        })
      ).status,
      401,
    );
    const judged = async () =>
      (
        await (
          await fetch(`${h.base}/preferences/export?format=jsonl&source=judge`, {
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
          })
        ).text()
      )
        .trim()
        .split('\n')
        .filter(Boolean);
    assert.deepEqual(await judged(), [], "no pair of two people's pitches before they agree to the data notice");
    for (const who of [alice, bob]) assert.equal((await h.run(who, 'privacy consent:on')).error, undefined);
    const rows = await judged();
    assert.ok(rows.length > 0, 'the judge-labelled pairs of the finished match');
    assert.doesNotMatch(rows.join('\n'), /test:alice|test:bob/);
  });

  test('stream caps: overall and per address', async () => {
    const capped = await webHarness({ web: { maxStreamsPerAddress: 2, maxStreams: 3 } });
    try {
      await capped.run(alice, 'new task:market_round seed:1 round_seconds:0');
      const mid = (await capped.current()).id;
      const url = `${capped.base}/matches/${mid}/events`;
      const open = [new AbortController(), new AbortController()];
      const res = await Promise.all(open.map((ac) => fetch(url, { signal: ac.signal })));
      assert.deepEqual(
        res.map((r) => r.status),
        [200, 200],
      );
      await waitUntil('two streams open', () => capped.web.hub.open === 2);
      assert.equal((await fetch(url)).status, 429, 'a third stream from one address');
      for (const ac of open) ac.abort();
      await waitUntil('streams closed', () => capped.web.hub.open === 0);
    } finally {
      await capped.close();
    }
  });
});
