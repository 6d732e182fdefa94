/**
 * Credentials in URLs are never printed: an LLM base URL or a web address written as
 * `http://user:KEY@host` shows as `http://user:***@host` in the console banner, the web page's banner and the
 * LLM summary the bots log (the Discord bot's log: test/adapters/discord/start.test.ts), and in the LLM
 * transport's error messages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APIConnectionError } from 'openai';
import { redactUrls } from '../../src/llm/redact.js';
import { describeLlmConfig, LlmConfigSchema } from '../../src/llm/config.js';
import { classifyError } from '../../src/llm/errors.js';
import { spawnScript } from '../adapters/console/spawn.js';

const KEY = 'sk-SECRET-in-the-url';

test('redactUrls masks the password of every URL in a text, or a bare token as the user; nothing else changes', () => {
  assert.equal(redactUrls(`http://user:${KEY}@host:8000/v1`), 'http://user:***@host:8000/v1');
  assert.equal(
    redactUrls(`see postgres://arena:${KEY}@db.internal:5432/arena and https://${KEY}@api.example/v1.`),
    'see postgres://arena:***@db.internal:5432/arena and https://***@api.example/v1.',
  );
  assert.equal(
    redactUrls('http://localhost:11434/v1 and mailto:a@b.c and user@example.org'),
    'http://localhost:11434/v1 and mailto:a@b.c and user@example.org',
  );
  assert.equal(redactUrls(`http://u:p%40ss@h/x?next=http://v:${KEY}@w/`), 'http://u:***@h/x?next=http://v:***@w/');
});

test('the LLM summary and the transport errors carry no credential', () => {
  const cfg = LlmConfigSchema.parse({ baseUrl: `http://user:${KEY}@127.0.0.1:9/v1`, agentModel: 'small' });
  assert.match(describeLlmConfig(cfg), /^LLM endpoint http:\/\/user:\*\*\*@127\.0\.0\.1:9\/v1; agent model: small/);
  const err = classifyError(
    new APIConnectionError({ message: `request to http://user:${KEY}@127.0.0.1:9/v1/chat/completions failed` }),
  );
  assert.equal(err.message, 'request to http://user:***@127.0.0.1:9/v1/chat/completions failed');
  assert.ok(!classifyError(new Error(`fetch http://x:${KEY}@h failed`)).message.includes(KEY));
});

test('the console banner prints the LLM endpoint with its key masked', { timeout: 60_000 }, async () => {
  const p = spawnScript('src/cli/main.ts', ['--db', ':memory:'], {
    ARENA_LLM_BASE_URL: `http://user:${KEY}@127.0.0.1:9/v1`,
    ARENA_AGENT_MODEL: 'small',
  });
  p.send('quit');
  p.child.stdin.end();
  assert.equal((await p.exited).code, 0, p.err());
  assert.match(p.out(), /LLM endpoint http:\/\/user:\*\*\*@127\.0\.0\.1:9\/v1/);
  assert.ok(!`${p.out()}${p.err()}`.includes(KEY));
});

test("the web page's banner prints its public address with the password masked", { timeout: 60_000 }, async () => {
  const p = spawnScript('src/cli/web.ts', ['--port', '0'], {
    ARENA_WEB_PUBLIC_URL: `https://voter:${KEY}@arena.example.org`,
    ARENA_DB: ':memory:',
  });
  try {
    await p.waitFor(/arena web page on/);
    assert.match(p.out(), /web votes linked from https:\/\/voter:\*\*\*@arena\.example\.org/);
    assert.ok(!`${p.out()}${p.err()}`.includes(KEY));
  } finally {
    p.child.kill('SIGTERM');
    await p.exited;
  }
});
