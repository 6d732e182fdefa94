/**
 * Bounded LLM spend: through the real discord.js client, a host who seats a model
 * outside `llm.allowedModels` gets a private error listing the allowed models, and nothing is logged;
 * an allowed model is seated. The default allow-list is the configured agent and judge models.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { openStore, type EventStore } from '../../../src/store/index.js';
import { startDiscord, type DiscordRuntime } from '../../../src/app/discord.js';
import { allowedModelsOf, createLlmRuntime } from '../../../src/app/llm.js';
import { LlmConfigSchema } from '../../../src/llm/config.js';
import type { SeatAgent } from '../../../src/agents/seat.js';
import { DiscordEmulator, type EmulatorUser } from '../../emulators/discord.js';
import { isEphemeral, payloadText, slash } from './helpers.js';

const alice: EmulatorUser = { id: '350000000000000001', username: 'alice' };

test('the default allow-list is the configured agent and judge models; an explicit list wins', async () => {
  assert.deepEqual(
    allowedModelsOf(
      LlmConfigSchema.parse({ agentModel: 'small', judgeModel: 'judge', judgePanel: ['judge', 'other'] }),
    ),
    ['small', 'judge', 'other'],
  );
  assert.deepEqual(allowedModelsOf(LlmConfigSchema.parse({ agentModel: 'small', allowedModels: ['a', 'b'] })), [
    'a',
    'b',
  ]);
  assert.deepEqual(allowedModelsOf(LlmConfigSchema.parse({})), []);
  // The runtime's agent factory builds agents for allowed models only (so its cache holds at most the list).
  const rt = await createLlmRuntime(LlmConfigSchema.parse({ baseUrl: 'http://127.0.0.1:9/v1', agentModel: 'small' }));
  assert.ok(rt.agentFor?.({ kind: 'llm', model: 'small' }));
  assert.equal(rt.agentFor?.({ kind: 'llm', model: 'gpt-4o' }), null);
});

describe('discord: seating a model outside the allow-list', () => {
  const emu = new DiscordEmulator();
  let store: EventStore;
  let rt: DiscordRuntime;

  before(async () => {
    await emu.start();
    store = await openStore({ sqlitePath: ':memory:' });
    // Any model would have an agent (one that only says it is done: no network); the allow-list decides.
    const idle: SeatAgent = { act: async () => [] };
    const agentFor = () => idle;
    rt = await startDiscord({
      env: { DISCORD_TOKEN: 'MTIz.allow.SECRET' },
      store,
      logger: pino({ level: 'silent' }),
      restApi: emu.restApi,
      softDeadlineMs: 60_000,
      hostOptions: { agentFor, allowedModels: ['small-local'] },
    });
  });
  after(async () => {
    await rt.stop();
    await store.close();
    await emu.close();
  });

  test('refused privately with the allowed models listed; nothing logged; an allowed one is seated', async () => {
    await slash(emu, rt.bot, alice, 'new', { task: 'market_round', seed: 3, round_seconds: 0 });
    const id = (await rt.host.current(emu.channelId))!.id;
    const before = await store.lastSeq(id);
    const refused = await slash(emu, rt.bot, alice, 'seat', { lab: 'lab_2', agent: 'llm', model: 'gpt-4o' });
    const text = refused.messages.map((m) => payloadText(m.body)).join('\n');
    assert.ok(
      refused.messages.every((m) => isEphemeral(m.body)),
      'the error is private',
    );
    assert.match(text, /model_not_allowed/);
    // Model names are untrusted text: escaped on Discord (shown as written, `gpt-4o`), never markup.
    assert.match(text, /Model gpt\\-4o is not allowed here\. Allowed models: small\\-local\./);
    assert.equal(await store.lastSeq(id), before, 'nothing logged');
    const seated = await slash(emu, rt.bot, alice, 'seat', { lab: 'lab_2', agent: 'llm', model: 'small-local' });
    assert.doesNotMatch(seated.messages.map((m) => payloadText(m.body)).join('\n'), /✗/);
    assert.equal(await store.lastSeq(id), before + 1);
    await slash(emu, rt.bot, alice, 'end');
  });
});
