/**
 * Web-vote links (src/web/links): a signed token round-trips; a changed payload or signature, another key,
 * garbage and an expired token are refused with their codes; the bot's `vote` reply carries a link only
 * when links are configured (config web.publicUrl).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  configureVoteLinks,
  newVoteClaims,
  signVoteToken,
  verifyVoteToken,
  voteLinkFor,
} from '../../src/web/links/vote-link.js';
import { openStore } from '../../src/store/index.js';
import { carol, pitchRound, startMatch, webHarness } from './helpers.js';

const KEY = 'a-test-key-0123456789abcdef';
const NOW = Date.parse('2030-01-01T00:00:00Z');
const user = { userId: 'discord:42', displayName: 'Ada' };

describe('web-vote links', () => {
  test('sign and verify; every kind of bad token is refused', () => {
    const claims = newVoteClaims(user, 'discord:chan', NOW, 600);
    const token = signVoteToken(claims, KEY);
    assert.deepEqual(verifyVoteToken(token, KEY, NOW + 1000), { ok: true, claims });
    const [body, sig] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forgedBody = Buffer.from(JSON.stringify({ ...payload, u: 'discord:666' })).toString('base64url');
    assert.deepEqual(
      verifyVoteToken(`${forgedBody}.${sig}`, KEY, NOW),
      { ok: false, code: 'bad_signature' },
      'another user, same signature',
    );
    assert.deepEqual(verifyVoteToken(`${body}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`, KEY, NOW), {
      ok: false,
      code: 'bad_signature',
    });
    // Every other spelling of the last character is refused, including those that decode to the same bytes
    // (its 2 low bits are padding): only the issued link itself verifies.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const c of alphabet)
      if (c !== sig.at(-1))
        assert.equal(verifyVoteToken(`${body}.${sig.slice(0, -1)}${c}`, KEY, NOW).ok, false, `last character ${c}`);
    assert.deepEqual(verifyVoteToken(token, 'another-key-0123456789abcdef', NOW), { ok: false, code: 'bad_signature' });
    assert.deepEqual(verifyVoteToken('garbage', KEY, NOW), { ok: false, code: 'malformed_link' });
    assert.deepEqual(verifyVoteToken(token, KEY, NOW + 600_000), { ok: false, code: 'expired_link' }, 'at its expiry');
    assert.notEqual(newVoteClaims(user, 'discord:chan', NOW, 600).j, claims.j, 'a fresh nonce per link');
  });

  test('links only when configured; the stored secret is used without a configured one', async () => {
    const store = await openStore({ sqlitePath: ':memory:' });
    try {
      configureVoteLinks(null);
      assert.equal(await voteLinkFor(store, user, 'c', NOW), null);
      configureVoteLinks({ publicUrl: 'https://arena.example.org/', secret: null, ttlSeconds: 900 });
      const link = await voteLinkFor(store, user, 'c', NOW);
      assert.ok(link);
      assert.match(link.url, /^https:\/\/arena\.example\.org\/vote\/link\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      assert.equal(link.expiresAt, NOW + 900_000);
      const token = link.url.split('/vote/link/')[1]!;
      const secret = await store.secret('web_vote_link', () => 'never used: already made');
      assert.equal(verifyVoteToken(token, secret, NOW).ok, true);
    } finally {
      configureVoteLinks(null);
      await store.close();
    }
  });

  test("the bot's vote reply offers a link only when links are configured", async () => {
    const h = await webHarness();
    try {
      await startMatch(h);
      await pitchRound(h);
      configureVoteLinks(null);
      const plain = await h.run(carol, 'vote');
      assert.equal(plain.error, undefined);
      assert.doesNotMatch(JSON.stringify(plain), /\/vote\/link\//);
      configureVoteLinks({ publicUrl: h.base, secret: null, ttlSeconds: 600 });
      const linked = await h.run(carol, 'vote');
      assert.equal(linked.public.length, 0, 'the link is private');
      assert.ok(linked.private.every((p) => p.userId === carol.userId));
      assert.match(JSON.stringify(linked.private), /\/vote\/link\//);
    } finally {
      configureVoteLinks(null);
      await h.close();
    }
  });
});
