/**
 * The consent flow in the console (docs/PREFERENCE-DATA.md#consent-and-erasure): after the person's first
 * pitch the terminal shows the data notice with the two answers as commands; `privacy consent:on` records
 * it and `privacy` shows it.
 */
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { test } from 'node:test';
import { CONSOLE_USER, runConsole } from '../../../src/adapters/console/session.js';
import { openStore } from '../../../src/store/index.js';

test('console: the notice after a first pitch, consent on, privacy shows it', async () => {
  const store = await openStore({ sqlitePath: ':memory:' });
  try {
    const input = new PassThrough();
    let out = '';
    const output = new Writable({ write: (c: Buffer, _e, cb) => ((out += String(c)), cb()) });
    input.end(
      [
        'pitch text:"Our training job needs one more block before its deadline"',
        'privacy consent:on',
        'privacy',
        ...Array(6).fill('done'),
      ].join('\n') + '\n',
    );
    assert.equal(
      await runConsole({
        store,
        input,
        output,
        interactive: false,
        color: false,
        task: 'market_round',
        roundSeconds: 0,
        chartsDir: null, // the final charts are not written: the test leaves the checkout as it found it
      }),
      0,
      out.slice(-1500),
    );
    const notice = out.indexOf('Research data: may we use your words and votes?');
    assert.ok(notice > 0, out.slice(0, 3000));
    assert.match(
      out.slice(notice, notice + 1500),
      /Licence: CC-BY-4\.0\. Until you agree, nothing of yours is exported\. `privacy consent:on` \/ `privacy consent:off`/,
    );
    assert.match(out, /Consent given/);
    assert.match(out, /Consent: you agreed/);
    assert.equal(out.split('may we use your words and votes').length - 1, 1, 'shown once');
    assert.equal((await store.getConsent(CONSOLE_USER.userId))?.state, 'granted');
  } finally {
    await store.close();
  }
});
