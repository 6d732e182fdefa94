/**
 * Slack settings from the environment: the mode picks which secret is required, a missing variable is
 * named with where to find it, a malformed one is named without echoing its value.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readSlackConfig, SlackConfigError } from '../../../src/adapters/slack/config.js';
import { startSlack } from '../../../src/app/slack.js';

const TOKEN = 'xoxb-123-SECRETVALUE';

describe('readSlackConfig', () => {
  test('http mode (the default) needs the bot token and the signing secret', () => {
    const cfg = readSlackConfig({
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: 'abcdef0123456789',
      PORT: '8080',
      SLACK_ADMIN_USER_IDS: 'U1, U2',
    });
    assert.ok(!(cfg instanceof SlackConfigError));
    assert.deepEqual(cfg, {
      mode: 'http',
      botToken: TOKEN,
      signingSecret: 'abcdef0123456789',
      appToken: null,
      port: 8080,
      adminUserIds: ['U1', 'U2'],
      apiUrl: null,
    });
  });

  test('socket mode needs the app token instead of the signing secret', () => {
    const cfg = readSlackConfig({ SLACK_MODE: 'socket', SLACK_BOT_TOKEN: TOKEN, SLACK_APP_TOKEN: 'xapp-1-abc' });
    assert.ok(!(cfg instanceof SlackConfigError));
    assert.equal(cfg.mode, 'socket');
    assert.equal(cfg.appToken, 'xapp-1-abc');
    assert.equal(cfg.signingSecret, null);
    assert.equal(cfg.port, 3000);
  });

  test('a missing variable is named, with where to get it', () => {
    const cases: [NodeJS.ProcessEnv, string][] = [
      [{ SLACK_SIGNING_SECRET: 'abcdef0123456789' }, 'SLACK_BOT_TOKEN'],
      [{ SLACK_BOT_TOKEN: TOKEN }, 'SLACK_SIGNING_SECRET'],
      [{ SLACK_BOT_TOKEN: TOKEN, SLACK_SIGNING_SECRET: ' ' }, 'SLACK_SIGNING_SECRET'],
      [{ SLACK_MODE: 'socket', SLACK_BOT_TOKEN: TOKEN, SLACK_SIGNING_SECRET: 'abcdef0123456789' }, 'SLACK_APP_TOKEN'],
    ];
    for (const [env, variable] of cases) {
      const err = readSlackConfig(env);
      assert.ok(err instanceof SlackConfigError, variable);
      assert.equal(err.code, 'missing_env');
      assert.equal(err.variable, variable);
      assert.match(err.message, new RegExp(`^${variable} is not set\\. Set it to .*api\\.slack\\.com/apps`));
    }
  });

  test('a malformed variable is named without echoing its value', () => {
    const wrongKind = readSlackConfig({
      SLACK_BOT_TOKEN: 'xapp-1-SECRETVALUE',
      SLACK_SIGNING_SECRET: 'abcdef0123456789',
    });
    assert.ok(wrongKind instanceof SlackConfigError);
    assert.equal(wrongKind.code, 'invalid_env');
    assert.equal(wrongKind.variable, 'SLACK_BOT_TOKEN');
    assert.ok(!wrongKind.message.includes('SECRETVALUE'));
    const mode = readSlackConfig({ SLACK_MODE: 'websocket', SLACK_BOT_TOKEN: TOKEN });
    assert.ok(mode instanceof SlackConfigError);
    assert.equal(mode.variable, 'SLACK_MODE');
  });

  test('startSlack rejects with the missing variable before connecting or opening a store', async () => {
    await assert.rejects(startSlack({ env: { SLACK_MODE: 'socket', SLACK_BOT_TOKEN: TOKEN } }), (err: unknown) => {
      assert.ok(err instanceof SlackConfigError);
      assert.equal(err.variable, 'SLACK_APP_TOKEN');
      assert.ok(!err.message.includes(TOKEN));
      return true;
    });
  });
});
