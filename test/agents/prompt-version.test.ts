/**
 * The seat prompt's version is recorded in the event log, as the judge's is in its decision: every action an
 * LLM seat takes is stored with `promptVersion` (src/agents/prompts.ts AGENT_PROMPT_VERSION); a person's actions
 * carry none. Through the real round host, the real openai client and the local emulator.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_PROMPT_VERSION } from '../../src/agents/prompts.js';
import { llmAgentFactory } from '../../src/agents/seat-agent.js';
import { startOpenAiEmulator, type OpenAiEmulator } from '../emulators/openai.js';
import { harness, person, unwrap } from '../host/helpers.js';
import { emuClient } from './helpers.js';

const HOST = person('host');
const ALICE = person('alice');
let emu: OpenAiEmulator;
before(async () => {
  emu = await startOpenAiEmulator();
});
after(() => emu.close());

test("an LLM seat's actions carry the seat prompt's version; a person's do not", async () => {
  emu.setResponder(() => ({
    content: JSON.stringify({
      plan: null,
      actions: [{ action_type: 'send_message', message: 'Anyone selling GPU-hours?' }, { action_type: 'wait' }],
      pitch: null,
    }),
  }));
  const h = await harness({ agentFor: llmAgentFactory(emuClient(emu)) });
  const m = unwrap(await h.host.create('c-pv', 'test', HOST, { task: 'market_round', seed: 5, roundSeconds: 0 }));
  unwrap(await h.host.join('c-pv', ALICE, 'lab_0'));
  unwrap(await h.host.assign('c-pv', HOST, 'lab_1', { kind: 'llm', model: 'agent-m' }));
  unwrap(await h.host.start('c-pv', HOST));
  await h.host.idle();
  unwrap(await h.host.act('c-pv', ALICE, { action_type: 'send_message', message: 'Alice here, buying.' }));
  await h.host.stop();
  const actions = (await h.store.load(m.id)).flatMap((e) => (e.body.type === 'action' ? [e.body] : []));
  const llm = actions.filter((a) => a.lab === 'lab_1');
  assert.equal(llm.length, 2, 'the LLM seat acted twice');
  assert.deepEqual(
    llm.map((a) => a.promptVersion),
    [AGENT_PROMPT_VERSION, AGENT_PROMPT_VERSION],
  );
  const alice = actions.filter((a) => a.lab === 'lab_0');
  assert.equal(alice.length, 1);
  assert.equal('promptVersion' in alice[0]!, false, "a person's action has no prompt version");
});
