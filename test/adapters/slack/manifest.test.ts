/**
 * The shipped Slack app manifest declares what the adapter uses: the `/arena` command, the bot scopes
 * for the Web API methods it calls, and interactivity (buttons, the pitch modal) on /slack/events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SLASH_COMMAND } from '../../../src/adapters/slack/handlers.js';

const manifest = readFileSync(new URL('../../../slack/manifest.yml', import.meta.url), 'utf8');

test('the manifest declares /arena, the bot scopes, the Home tab and its event, and interactivity', () => {
  assert.match(manifest, new RegExp(`^\\s+- command: ${SLASH_COMMAND}$`, 'm'));
  const scopes = [...(manifest.match(/bot:\n((?:\s+(?:-|#).*\n)+)/)?.[1] ?? '').matchAll(/^\s+- (\S+)$/gm)].map(
    (m) => m[1],
  );
  // commands: the slash command; chat:write: chat.postMessage / chat.postEphemeral; chat:write.public: public channels;
  // files:write: files.uploadV2 of charts.
  assert.deepEqual(scopes, ['commands', 'chat:write', 'chat:write.public', 'files:write']);
  assert.match(manifest, /interactivity:\n(?:\s+#.*\n)?\s+is_enabled: true/);
  const urls = [...manifest.matchAll(/^\s+(?:url|request_url): (\S+)$/gm)].map((m) => m[1]);
  assert.equal(urls.length, 3);
  assert.ok(
    urls.every((u) => u?.endsWith('/slack/events')),
    'Bolt serves slash commands, events and interactivity on /slack/events',
  );
  // The App Home tab (src/adapters/slack/home.ts) and the event that publishes it.
  assert.match(manifest, /app_home:\n(?:\s+#.*\n)?\s+home_tab_enabled: true/);
  assert.match(manifest, /bot_events:\n\s+- app_home_opened/);
});
