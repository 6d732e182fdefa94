import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { clearAgentFactories, registerAgentFactory, resolvePlayer } from '../../src/eval/players.js';
import { runEpisode } from '../../src/eval/runner.js';
import { registerEvalAgents, createLlmRuntime } from '../../src/app/llm.js';
import { LlmConfigSchema, loadLlmConfig, describeLlmConfig } from '../../src/llm/config.js';
import { startOpenAiEmulator, type OpenAiEmulator } from '../emulators/openai.js';

describe('llm:<model> players in the eval runner, and settings', () => {
  let emu: OpenAiEmulator;
  before(async () => {
    emu = await startOpenAiEmulator();
  });
  after(() => {
    clearAgentFactories();
    return emu.close();
  });

  test('an llm:<model> player plays a whole episode through the endpoint, one call per round', async () => {
    clearAgentFactories();
    const reg = await registerEvalAgents(registerAgentFactory, {
      ARENA_LLM_BASE_URL: emu.baseURL,
      ARENA_LLM_RETRIES: '0',
    });
    assert.equal(reg.ok, true, reg.message);
    const r = resolvePlayer('llm:tiny-model');
    assert.ok(r.ok);
    emu.setResponder(() => ({
      content: JSON.stringify({ plan: null, actions: [{ action_type: 'wait' }], pitch: null }),
    }));
    const n0 = emu.chatRequests().length;
    const res = await runEpisode(r.player, { task: 'single_trade', seed: 0 });
    assert.equal(res.rounds, 3);
    assert.equal(emu.chatRequests().length - n0, 3);
    assert.ok(
      emu
        .chatRequests()
        .slice(n0)
        .every((q) => q.body?.model === 'tiny-model'),
    );
    assert.ok(Number.isFinite(res.reward));
    // a broken endpoint: the seat waits every round and the episode still ends
    emu.setResponder(() => ({ status: 500 }));
    const broken = await runEpisode(r.player, { task: 'single_trade', seed: 1 });
    assert.equal(broken.rounds, 3);
    assert.equal(broken.steps, 0);
  });

  test('without an endpoint nothing registers and the message says what to set', async () => {
    clearAgentFactories();
    const reg = await registerEvalAgents(registerAgentFactory, {});
    assert.equal(reg.ok, false);
    assert.match(reg.message, /ARENA_LLM_BASE_URL or OPENAI_API_KEY/);
    assert.equal(resolvePlayer('llm:x').ok, false);
  });

  test('settings: env overrides the file; bad values are coded errors; runtime without endpoint is null', async () => {
    const r = loadLlmConfig(
      { baseUrl: 'http://localhost:11434/v1', agentModel: 'llama3', timeoutMs: 5000 },
      { ARENA_AGENT_MODEL: 'qwen', ARENA_LLM_MAX_CONCURRENT: '3', ARENA_JUDGE_PANEL: 'a, b' },
    );
    assert.ok(r.ok);
    assert.equal(r.config.agentModel, 'qwen');
    assert.equal(r.config.baseUrl, 'http://localhost:11434/v1');
    assert.equal(r.config.maxConcurrent, 3);
    assert.deepEqual(r.config.judgePanel, ['a', 'b']);
    const bad = loadLlmConfig({}, { ARENA_LLM_TIMEOUT_MS: 'soon', ARENA_LLM_BASE_URL: 'not a url' });
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && bad.error.code === 'invalid_llm_config');
    assert.deepEqual(!bad.ok && bad.error.issues.map((i) => i.path).sort(), ['baseUrl', 'timeoutMs']);
    const none = await createLlmRuntime(LlmConfigSchema.parse({}));
    assert.equal(none.agentFor, null);
    assert.equal(none.judge, null);
    assert.match(none.summary, /rule judge decides/);
    const openai = LlmConfigSchema.parse({ apiKey: 'sk-test', judgeModel: 'gpt-4o-mini' });
    assert.match(describeLlmConfig(openai), /api\.openai\.com.*judge: gpt-4o-mini/);
    assert.doesNotMatch(describeLlmConfig(openai), /sk-test/);
    const rt = await createLlmRuntime(LlmConfigSchema.parse({ baseUrl: emu.baseURL, judgeModel: 'j' }));
    assert.ok(rt.judge && rt.agentFor);
  });
});
