/** Configuration: the example file is valid, environment variables override it, errors name the key and variable. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../../src/app/config/index.js';
import { tempDir } from './spawn.js';

describe('loadConfig', () => {
  test('config/arena.example.json is valid and gives the documented defaults', () => {
    const r = loadConfig('config/arena.example.json', {});
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.config.database, { url: null, sqlitePath: './data/arena.db' });
    assert.deepEqual(r.config.match, { task: 'market_round', roundSeconds: 300, holdout: false });
    assert.equal(r.config.console.roundSeconds, 0);
    assert.equal(r.config.llm.judgeModel, null);
  });

  test('environment variables win over the file', () => {
    const r = loadConfig('config/arena.example.json', {
      DATABASE_URL: 'postgres://u@h/db',
      ARENA_DB: '/tmp/x.db',
      ARENA_TASK: 'coalition_market',
      ARENA_ROUND_SECONDS: '60',
      ARENA_HOLDOUT: 'true',
      ARENA_ADMIN_USER_IDS: 'discord:1, slack:U2',
      LOG_LEVEL: 'debug',
      ARENA_JUDGE_MODEL: 'judge-x',
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.config.database, { url: 'postgres://u@h/db', sqlitePath: '/tmp/x.db' });
    assert.deepEqual(r.config.match, { task: 'coalition_market', roundSeconds: 60, holdout: true });
    assert.deepEqual(r.config.adminUserIds, ['discord:1', 'slack:U2']);
    assert.equal(r.config.log.level, 'debug');
    assert.equal(r.config.llm.judgeModel, 'judge-x');
  });

  test('errors are values naming the key (and the variable), unknown keys and bad JSON included', () => {
    const bad = loadConfig(undefined, { ARENA_ROUND_SECONDS: 'soon' });
    assert.ok(!bad.ok);
    assert.equal(bad.error.code, 'invalid_config');
    assert.match(bad.error.message, /match\.roundSeconds \(ARENA_ROUND_SECONDS\)/);
    const dir = tempDir();
    const typo = join(dir, 'typo.json');
    writeFileSync(typo, JSON.stringify({ match: { rounds: 3 } }));
    const t = loadConfig(typo, {});
    assert.ok(!t.ok);
    assert.match(t.error.message, /rounds/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ "match": ');
    const b = loadConfig(broken, {});
    assert.ok(!b.ok);
    assert.equal(b.error.code, 'invalid_json');
    const none = loadConfig(join(dir, 'missing.json'), {});
    assert.ok(!none.ok);
    assert.equal(none.error.code, 'config_not_found');
  });
});
