/**
 * Migration 0011 on SQLite and — when TEST_DATABASE_URL is set — PostgreSQL: matches that play in a thread
 * know their parent channel (a command typed there finds them), a channel holds any number of thread matches
 * beside its own flat one, and chat settings (a person's or a channel's) outlive matches, last writer wins,
 * across two connections standing in for two bot processes.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { onBothStores, type PairBackend } from '../support/store-pair.js';

const at = '2026-01-01T00:00:00.000Z';

function suite(backend: PairBackend): void {
  describe(`threads and chat settings (0011): ${backend.name}`, () => {
    test('thread matches are listed under their parent channel; the parent keeps its own flat match', async () => {
      const { a, b, close } = await backend.pair();
      try {
        assert.ok((await a.createMatch({ id: 'm_flat', channelId: 'C1', platform: 'slack', createdAt: at })).ok);
        assert.ok(
          (
            await a.createMatch({
              id: 'm_t1',
              channelId: 'C1:1.1',
              platform: 'slack',
              createdAt: at,
              parentChannelId: 'C1',
            })
          ).ok,
        );
        assert.ok(
          (
            await b.createMatch({
              id: 'm_t2',
              channelId: 'C1:2.2',
              platform: 'slack',
              createdAt: '2026-01-01T00:00:01.000Z',
              parentChannelId: 'C1',
            })
          ).ok,
        );
        assert.ok(
          (
            await b.createMatch({
              id: 'm_other',
              channelId: 'C2:3.3',
              platform: 'slack',
              createdAt: at,
              parentChannelId: 'C2',
            })
          ).ok,
        );
        // One active match per channel still holds for the thread itself.
        const busy = await a.createMatch({
          id: 'm_t1b',
          channelId: 'C1:1.1',
          platform: 'slack',
          createdAt: at,
          parentChannelId: 'C1',
        });
        assert.deepEqual(busy, { ok: false, code: 'channel_busy', activeMatchId: 'm_t1' });
        assert.deepEqual(
          (await b.activeMatchesUnder('C1')).map((m) => m.id),
          ['m_t1', 'm_t2'],
        );
        assert.equal((await a.activeMatchInChannel('C1'))?.id, 'm_flat');
        assert.equal((await a.getMatch('m_t1'))?.parentChannelId, 'C1');
        assert.equal((await a.getMatch('m_flat'))?.parentChannelId, undefined);
        await a.setMatchStatus('m_t1', 'over');
        assert.deepEqual(
          (await b.activeMatchesUnder('C1')).map((m) => m.id),
          ['m_t2'],
          'an ended match is not listed',
        );
        assert.deepEqual(await a.activeMatchesUnder('C9'), []);
      } finally {
        await close();
      }
    });

    test('chat settings: set, read from another connection, overwrite, clear; bad keys refused', async () => {
      const { a, b, close } = await backend.pair();
      try {
        assert.equal(await a.chatSetting('person', 'discord:1', 'reminders'), null);
        await a.setChatSetting('person', 'discord:1', 'reminders', 'off');
        await a.setChatSetting('channel', 'C1', 'reminders', 'on');
        assert.equal(await b.chatSetting('person', 'discord:1', 'reminders'), 'off');
        assert.equal(await b.chatSetting('channel', 'C1', 'reminders'), 'on');
        assert.equal(await b.chatSetting('channel', 'discord:1', 'reminders'), null, 'scopes are apart');
        await b.setChatSetting('person', 'discord:1', 'reminders', 'on');
        assert.equal(await a.chatSetting('person', 'discord:1', 'reminders'), 'on', 'the last writer wins');
        await a.setChatSetting('person', 'discord:1', 'reminders', null);
        assert.equal(await b.chatSetting('person', 'discord:1', 'reminders'), null);
        await assert.rejects(a.setChatSetting('person', '', 'reminders', 'off'), TypeError);
        await assert.rejects(a.chatSetting('person', 'x', 'k'.repeat(201)), TypeError);
        await assert.rejects(a.setChatSetting('team' as 'person', 'x', 'reminders', 'off'), TypeError);
      } finally {
        await close();
      }
    });
  });
}

onBothStores('threads and chat settings (0011): postgres', 'arena_threads', suite);
