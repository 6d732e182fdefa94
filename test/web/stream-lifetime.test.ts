/**
 * The live-update hub (src/web/hub.ts) with node:test's fake timers: a stream ends after its lifetime
 * (`web.streamSeconds`), its slot is free again, and the reconnect with `Last-Event-ID` gets only what
 * came after; the per-address cap applies again at the reconnect. No wall clock: time moves by `tick`.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import type { LoadedMatch } from '../../src/web/cache.js';
import type { FeedItem } from '../../src/web/feed.js';
import { html } from '../../src/web/html.js';
import { StreamHub } from '../../src/web/hub.js';

/** A response as the hub uses it: written text, `end`, and `close` once ended. */
class FakeResponse extends EventEmitter {
  text = '';
  writableEnded = false;
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  end(): void {
    if (this.writableEnded) return;
    this.writableEnded = true;
    this.emit('close');
  }
  /** The ids of the feed items written so far. */
  ids(): number[] {
    return [...this.text.matchAll(/^id: (\d+)\nevent: feed/gm)].map((m) => Number(m[1]));
  }
}

const STREAM_MS = 600_000;

describe('event streams have a bounded lifetime', () => {
  let seq = 3;
  const loaded = (): LoadedMatch =>
    ({
      record: { id: 'm1', channelId: 'c', platform: 'test', status: 'running', createdAt: '2026-01-01T00:00:00Z' },
      events: Array.from({ length: seq }, (_, i) => ({
        matchId: 'm1',
        seq: i + 1,
        at: '2026-01-01T00:00:00Z',
        body: { type: 'seat_done', lab: 'lab_0' },
      })),
      match: { phase: 'running' },
      error: null,
    }) as unknown as LoadedMatch;
  const items = (after: number): FeedItem[] =>
    Array.from({ length: seq }, (_, i) => ({
      seq: i + 1,
      round: 0,
      kind: 'message',
      html: html`<li>item ${i + 1}</li>`,
    })).filter((it) => it.seq > after);
  let hub: StreamHub;

  beforeEach(() => {
    seq = 3;
    mock.timers.enable({ apis: ['setTimeout', 'setInterval'] });
    hub = new StreamHub({
      load: async () => loaded(),
      render: async (_l, after) => ({ items: items(after), state: null }),
      pollMs: 250,
      maxStreams: 10,
      maxPerAddress: 2,
      streamMs: STREAM_MS,
    });
  });
  afterEach(() => {
    hub.close();
    mock.timers.reset();
  });

  const attach = async (address: string, after = 0) => {
    const res = new FakeResponse();
    await hub.attach(loaded(), res as unknown as ServerResponse, address, after);
    return res;
  };

  test('a stream ends after streamMs and frees its slot; the reconnect resumes after the last id it got', async () => {
    const a = await attach('10.0.0.1');
    const b = await attach('10.0.0.1');
    assert.deepEqual(a.ids(), [1, 2, 3]);
    assert.equal(hub.admit('10.0.0.1'), 'too_many_streams_from_address', 'the address holds its share');
    mock.timers.tick(STREAM_MS - 1);
    assert.equal(a.writableEnded, false, 'not before its lifetime');
    seq = 5; // two more items while the streams are open
    mock.timers.tick(1);
    assert.ok(a.writableEnded && b.writableEnded, 'both ended at their lifetime');
    assert.equal(hub.open, 0, 'their slots are free');
    assert.equal(hub.admit('10.0.0.1'), null);
    const again = await attach('10.0.0.1', 3); // EventSource sends Last-Event-ID: 3
    assert.deepEqual(again.ids(), [4, 5], 'no gap, no duplicate');
  });

  test('a stream closed by the browser first never ends twice', async () => {
    const a = await attach('10.0.0.2');
    a.end();
    assert.equal(hub.open, 0);
    mock.timers.tick(STREAM_MS);
    assert.equal(hub.open, 0);
    assert.equal(hub.admit('10.0.0.2'), null);
  });
});
