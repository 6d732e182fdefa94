/**
 * `POST /vote` is recorded only when it comes from this page: its Origin (or, without one, its Referer) must
 * be `web.publicUrl`'s origin or the host the request was sent to. A post from another site, one naming no
 * origin, or `Origin: null` gets 403 with a clear page and records nothing, even with a valid session cookie
 * (the SameSite=Strict cookie is the other half of the defence). Through the real web app (fastify inject)
 * on a real match with an open ballot; and the pure check.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkSameOrigin } from '../../src/web/origin.js';
import { configureVoteLinks } from '../../src/web/links/vote-link.js';
import { carol, LINK_SECRET, pitchRound, startMatch, webHarness, type WebHarness } from './helpers.js';

test('checkSameOrigin: the page itself (publicUrl or Host) passes; other sites, none and null do not', () => {
  const own = 'https://arena.example.org';
  assert.deepEqual(
    checkSameOrigin({ origin: 'https://arena.example.org', host: '10.0.0.5:8090' }, own),
    { ok: true },
    'publicUrl behind a proxy',
  );
  assert.deepEqual(
    checkSameOrigin({ origin: 'http://127.0.0.1:8090', host: '127.0.0.1:8090' }, null),
    { ok: true },
    'the host it was sent to',
  );
  assert.deepEqual(
    checkSameOrigin({ referer: 'http://127.0.0.1:8090/vote', host: '127.0.0.1:8090' }, null),
    { ok: true },
    'Referer when there is no Origin',
  );
  assert.deepEqual(checkSameOrigin({ origin: 'https://evil.example', host: 'arena.example.org' }, own), {
    ok: false,
    origin: 'https://evil.example',
  });
  assert.deepEqual(
    checkSameOrigin({ origin: 'https://arena.example.org.evil.example', host: 'arena.example.org' }, own),
    { ok: false, origin: 'https://arena.example.org.evil.example' },
  );
  assert.deepEqual(
    checkSameOrigin({ origin: 'http://127.0.0.1:9999', host: '127.0.0.1:8090' }, null),
    { ok: false, origin: 'http://127.0.0.1:9999' },
    'another port is another origin',
  );
  assert.deepEqual(checkSameOrigin({ origin: 'null', host: 'arena.example.org' }, own), { ok: false, origin: 'null' });
  assert.deepEqual(checkSameOrigin({ host: 'arena.example.org' }, own), { ok: false, origin: null });
  assert.deepEqual(checkSameOrigin({ origin: 'javascript:alert(1)', host: 'arena.example.org' }, own), {
    ok: false,
    origin: 'javascript:alert(1)',
  });
});

describe('POST /vote checks its Origin', () => {
  let h: WebHarness;
  let cookie = '';
  let form = '';

  before(async () => {
    h = await webHarness();
    configureVoteLinks({ publicUrl: h.base, secret: LINK_SECRET, ttlSeconds: 600 });
    const id = await startMatch(h);
    await pitchRound(h);
    // Carol's personal link: its session cookie, then her pair's form fields.
    const text = (await h.run(carol, 'vote')).private.map((p) => p.text).join('\n');
    const path = /\/vote\/link\/[A-Za-z0-9_.-]+/.exec(text)?.[0];
    assert.ok(path, text);
    const opened = await h.web.app.inject({ method: 'GET', url: path });
    assert.equal(opened.statusCode, 303);
    cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    form = `match=${id}&ballot=v_1&pair=1&choice=a`;
  });
  after(async () => {
    configureVoteLinks(null);
    await h.close();
  });

  const post = (headers: Record<string, string>) =>
    h.web.app.inject({
      method: 'POST',
      url: '/vote',
      payload: form,
      headers: {
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
        host: h.base.slice('http://'.length),
        ...headers,
      },
    });
  const votes = async () => (await h.webStore.listVotes({ voterId: carol.userId })).length;

  test('from another site, from nowhere, or from null: 403, a clear page, nothing recorded', async () => {
    for (const [what, headers, says] of [
      [
        'another site',
        { origin: 'https://evil.example' },
        /sent from another site \(https:\/\/evil\.example\), not from this page, so it was not recorded/,
      ],
      ['another port of this host', { origin: 'http://127.0.0.1:1' }, /another site \(http:\/\/127\.0\.0\.1:1\)/],
      ['a sandboxed frame', { origin: 'null' }, /another site \(null\)/],
      ['no Origin nor Referer', {}, /sent from a page that did not say where it was/],
      ['a Referer of another site', { referer: 'https://evil.example/x' }, /another site \(https:\/\/evil\.example\)/],
    ] as const) {
      const r = await post(headers);
      assert.equal(r.statusCode, 403, what);
      assert.match(r.body.replace(/<[^>]+>/g, ''), says, what);
      assert.equal(await votes(), 0, `${what}: nothing recorded`);
    }
  });

  test("the vote page asks browsers to name its origin on its own form's POST (Referrer-Policy: same-origin)", async () => {
    const page = await h.web.app.inject({ method: 'GET', url: '/vote', headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['referrer-policy'], 'same-origin', 'under no-referrer a browser would send Origin: null');
  });

  test('from the page itself (Origin, or Referer alone): recorded', async () => {
    const r = await post({ origin: h.base });
    assert.equal(r.statusCode, 200, r.body);
    assert.match(r.body, /Vote recorded: ballot v_1, pair 1/);
    assert.equal(await votes(), 1);
    const again = await post({ referer: `${h.base}/vote` });
    assert.equal(again.statusCode, 409, 'past the origin check: the same pair twice is a duplicate');
  });
});
