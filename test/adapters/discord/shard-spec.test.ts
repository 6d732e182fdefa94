/** `--shards` values (src/adapters/discord/shard-spec.ts): what each means, what is refused and why. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseShardSpec, withoutShardsOption } from '../../../src/adapters/discord/shard-spec.js';
import { ShardSpecError } from '../../../src/adapters/discord/errors.js';
import { respawnDelayMs } from '../../../src/adapters/discord/sharding.js';

test('auto, a count, a list of a total, a list of the recommended total', () => {
  assert.deepEqual(parseShardSpec('auto'), { total: 'auto', list: 'all' });
  assert.deepEqual(parseShardSpec(' AUTO '), { total: 'auto', list: 'all' });
  assert.deepEqual(parseShardSpec('4'), { total: 4, list: 'all' });
  assert.deepEqual(parseShardSpec('0,1/4'), { total: 4, list: [0, 1] });
  assert.deepEqual(parseShardSpec('2-4,0/8'), { total: 8, list: [0, 2, 3, 4] });
  assert.deepEqual(parseShardSpec('3,1,3'), { total: 'auto', list: [1, 3] });
});

test('refused with a message that says what is accepted', () => {
  for (const bad of ['', '0', 'many', '1/0', '4/4', '2-1/4', '0,,1/4', '0/2/3', '-1', '99999']) {
    const r = parseShardSpec(bad);
    assert.ok(r instanceof ShardSpecError, `"${bad}" is refused`);
    assert.equal(r.code, 'invalid_shards');
    assert.match(r.message, /--shards/);
  }
  assert.match((parseShardSpec('4/4') as Error).message, /shard 4 does not exist with 4 shards/);
});

test('the shard processes get the same arguments without --shards', () => {
  assert.deepEqual(withoutShardsOption(['--platform', 'discord', '--shards', 'auto', '--db', 'x.db']), [
    '--platform',
    'discord',
    '--db',
    'x.db',
  ]);
  assert.deepEqual(withoutShardsOption(['--shards=0,1/2', '--platform', 'discord']), ['--platform', 'discord']);
});

test('a dead shard is respawned after a growing pause: 1 s, 2 s, 4 s, … at most 30 s', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 9].map(respawnDelayMs), [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
});
