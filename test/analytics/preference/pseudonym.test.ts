import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { openSqliteStore } from '../../../src/store/index.js';
import { pseudonym, pseudonymizer } from '../../../src/analytics/preference/pseudonym.js';

test('pseudonym: u_ + 16 hex of HMAC-SHA256(secret, user id); stable, secret-dependent, never the id', () => {
  const expected = `u_${createHmac('sha256', 's3cret').update('discord:123').digest('hex').slice(0, 16)}`;
  assert.equal(pseudonym('discord:123', 's3cret'), expected);
  assert.match(expected, /^u_[0-9a-f]{16}$/);
  assert.notEqual(pseudonym('discord:123', 'other'), expected);
  assert.notEqual(pseudonym('discord:124', 's3cret'), expected);
  assert.ok(!expected.includes('123'));
  assert.throws(() => pseudonym('discord:1', ''), TypeError);
});

test('pseudonymizer: a configured secret wins; otherwise one secret is generated and kept in the store', async () => {
  const store = await openSqliteStore(':memory:');
  try {
    const configured = await pseudonymizer(store, 'from-config');
    assert.equal(configured('slack:U1'), pseudonym('slack:U1', 'from-config'));
    const first = await pseudonymizer(store);
    const second = await pseudonymizer(store, '  ');
    assert.equal(first('slack:U1'), second('slack:U1'), 'the stored secret is reused');
    assert.notEqual(first('slack:U1'), configured('slack:U1'));
    const stored = await store.secret('pseudonym', () => 'never used');
    assert.equal(first('slack:U1'), pseudonym('slack:U1', stored));
  } finally {
    await store.close();
  }
});
