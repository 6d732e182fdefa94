import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retryOnVanishedSchema } from '../../src/store/migrations.js';

const vanished = (schema: string) => Object.assign(new Error(`schema "${schema}" does not exist`), { code: '3F000' });

test('a migration is retried when another schema vanished under the catalog listing, not when ours did', async () => {
  let calls = 0;
  const ok = await retryOnVanishedSchema(async () => {
    calls++;
    if (calls < 3) throw new Error('migration failed', { cause: vanished('someone_else') });
    return 'done';
  }, 'mine');
  assert.equal(ok, 'done');
  assert.equal(calls, 3);
  calls = 0;
  await assert.rejects(
    retryOnVanishedSchema(async () => (calls++, Promise.reject(vanished('mine'))), 'mine'),
    /"mine"/,
  );
  assert.equal(calls, 1, 'our own schema missing is a real failure');
  calls = 0;
  await assert.rejects(
    retryOnVanishedSchema(async () => (calls++, Promise.reject(new Error('syntax error'))), 'mine'),
    /syntax/,
  );
  assert.equal(calls, 1);
  calls = 0;
  await assert.rejects(retryOnVanishedSchema(async () => (calls++, Promise.reject(vanished('other'))), 'mine'));
  assert.equal(calls, 3, 'at most 3 attempts');
});
