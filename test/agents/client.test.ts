import { test, describe, afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { startOpenAiEmulator, type OpenAiEmulator } from '../emulators/openai.js';
import { LlmClient } from '../../src/llm/client.js';
import { LlmConfigSchema, type LlmConfigInput } from '../../src/llm/config.js';
import type { LlmCallRecord } from '../../src/llm/types.js';
import { waitUntil } from '../support/wait.js';

const Verdict = z.object({ winner: z.string(), score: z.number().min(0).max(1), note: z.string().nullable() });
const ask = {
  role: 'bench' as const,
  model: 'm1',
  name: 'verdict',
  schema: Verdict,
  messages: [{ role: 'user' as const, content: 'Judge it.' }],
};

/** A client on the emulator; its 10 s timeout is for replies that arrive (ample on a loaded machine). */
function client(emu: OpenAiEmulator, over: LlmConfigInput = {}, onCall?: (r: LlmCallRecord) => void) {
  const cfg = LlmConfigSchema.parse({ baseUrl: emu.baseURL, timeoutMs: 10_000, maxRetries: 2, ...over });
  return new LlmClient(cfg, onCall ? { onCall } : {});
}

describe('LlmClient against the local emulator (real openai client)', () => {
  // One emulator per test: a request a test aborted before it was sent leaves its scripted reply queued, and a
  // request that arrives after its test ended would take the next test's reply.
  let emu: OpenAiEmulator;
  beforeEach(async () => {
    emu = await startOpenAiEmulator();
  });
  afterEach(() => emu.close());

  test('scripted reply: json_schema request, parsed value, usage and latency recorded', async () => {
    const records: LlmCallRecord[] = [];
    const c = client(emu, {}, (r) => records.push(r));
    const n0 = emu.chatRequests().length;
    emu.script({
      content: JSON.stringify({ winner: 'Seat K', score: 0.7, note: null }),
      usage: { prompt_tokens: 50, completion_tokens: 10 },
    });
    const r = await c.structured({ ...ask, matchId: 'mA' });
    assert.ok(r.ok);
    assert.deepEqual(r.value, { winner: 'Seat K', score: 0.7, note: null });
    assert.equal(r.mode, 'json_schema');
    assert.equal(r.usage.totalTokens, 60);
    const req = emu.chatRequests()[n0];
    assert.equal(req?.body?.response_format?.type, 'json_schema');
    assert.equal(req?.body?.response_format?.json_schema?.name, 'verdict');
    assert.equal(records.length, 1);
    const { role, model, matchId, mode, ok, code, usage, latencyMs } = records[0]!;
    assert.deepEqual(
      { role, model, matchId, mode, ok, code, tokens: usage?.totalTokens },
      { role: 'bench', model: 'm1', matchId: 'mA', mode: 'json_schema', ok: true, code: 'ok', tokens: 60 },
    );
    assert.equal(latencyMs, r.latencyMs, "the record carries the call's measured latency");
    assert.equal(c.spentBy('mA'), 60);
  });

  test('malformed JSON → invalid_json; schema-violating JSON → schema_mismatch (no retry)', async () => {
    const c = client(emu);
    const n0 = emu.chatRequests().length;
    emu.script({ content: '{"winner": "Seat K", score: oops' });
    const bad = await c.structured(ask);
    assert.equal(bad.ok, false);
    assert.equal(!bad.ok && bad.code, 'invalid_json');
    emu.script({ content: JSON.stringify({ winner: 'Seat K', score: 7, note: null }) });
    const wrong = await c.structured(ask);
    assert.equal(!wrong.ok && wrong.code, 'schema_mismatch');
    assert.match(!wrong.ok ? wrong.message : '', /score/);
    assert.equal(emu.chatRequests().length - n0, 2);
  });

  test('429 then success: retried by the client, 2 requests at the emulator', async () => {
    const c = client(emu);
    const n0 = emu.chatRequests().length;
    emu.script({ status: 429, retryAfterMs: 10 }, { content: JSON.stringify({ winner: 'a', score: 0.1, note: 'x' }) });
    const r = await c.structured(ask);
    assert.equal(r.ok, true);
    const reqs = emu.chatRequests().slice(n0);
    assert.equal(reqs.length, 2);
    assert.equal(reqs[1]?.headers['x-stainless-retry-count'], '1');
  });

  test('500s past the retries → http_error with status; 429s past the retries → rate_limited', async () => {
    const c = client(emu, { maxRetries: 1 });
    const n0 = emu.chatRequests().length;
    emu.script({ status: 500, retryAfterMs: 5 }, { status: 500, retryAfterMs: 5 });
    const r = await c.structured(ask);
    assert.equal(!r.ok && r.code, 'http_error');
    assert.equal(!r.ok && r.status, 500);
    assert.equal(emu.chatRequests().length - n0, 2);
    emu.script({ status: 429, retryAfterMs: 5 }, { status: 429, retryAfterMs: 5 });
    const q = await c.structured(ask);
    assert.equal(!q.ok && q.code, 'rate_limited');
  });

  test('a hang past the timeout → timeout (each attempt timed out)', async () => {
    const c = client(emu, { timeoutMs: 100, maxRetries: 1 });
    const n0 = emu.chatRequests().length;
    emu.script({ hang: true }, { hang: true });
    const r = await c.structured(ask);
    assert.equal(!r.ok && r.code, 'timeout');
    assert.equal(emu.chatRequests().length - n0, 2);
  });

  test('a slow reply within the timeout succeeds; the caller signal aborts a slow one', async () => {
    const c = client(emu);
    emu.script({ delayMs: 150, content: JSON.stringify({ winner: 'a', score: 0.5, note: null }) });
    const r = await c.structured(ask);
    assert.equal(r.ok, true);
    assert.ok(r.latencyMs >= 140);
    // The aborted requests hang (never answered), so no reply can beat the abort on a slow machine; the
    // caller aborts once its request has arrived (an order, not a time).
    emu.script({ hang: true });
    const ac = new AbortController();
    const sent = emu.chatRequests().length;
    void waitUntil('the request to arrive', () => emu.chatRequests().length > sent).then(() => ac.abort());
    const a = await c.structured({ ...ask, signal: ac.signal });
    assert.equal(!a.ok && a.code, 'aborted');
    emu.script({ hang: true });
    const d = await c.structured({ ...ask, signal: AbortSignal.timeout(30) });
    assert.equal(!d.ok && d.code, 'timeout');
  });

  test('server without json_schema: falls back to json_object, then text with extraction; mode remembered', async () => {
    const c = client(emu);
    const n0 = emu.chatRequests().length;
    emu.script(
      { status: 400, errorMessage: 'response_format json_schema not supported' },
      { status: 400, errorMessage: 'response_format json_object not supported' },
      { content: 'Sure! Here is my verdict:\n```json\n{"winner": "Seat {Q}", "score": 0.4, "note": "ok"}\n```' },
    );
    const r = await c.structured({ ...ask, model: 'old-model' });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.mode, 'text');
    assert.equal(r.value.winner, 'Seat {Q}');
    const reqs = emu.chatRequests().slice(n0);
    assert.deepEqual(
      reqs.map((q) => q.body?.response_format?.type ?? 'none'),
      ['json_schema', 'json_object', 'none'],
    );
    // the schema is stated in the prompt when the server cannot enforce it
    assert.match(reqs[2]?.body?.messages?.[0]?.content ?? '', /JSON Schema/);
    emu.script({ content: 'verdict: {"winner": "b", "score": 1, "note": null} done' });
    const again = await c.structured({ ...ask, model: 'old-model' });
    assert.ok(again.ok);
    assert.equal(emu.chatRequests().at(-1)?.body?.response_format, undefined);
  });

  test('per-match token budget: calls past it fail budget_exhausted without a request', async () => {
    const c = client(emu, { matchTokenBudget: 100 });
    emu.script({
      content: JSON.stringify({ winner: 'a', score: 0.5, note: null }),
      usage: { prompt_tokens: 80, completion_tokens: 30 },
    });
    assert.equal((await c.structured({ ...ask, matchId: 'mB' })).ok, true);
    const n0 = emu.chatRequests().length;
    const r = await c.structured({ ...ask, matchId: 'mB' });
    assert.equal(!r.ok && r.code, 'budget_exhausted');
    assert.equal(emu.chatRequests().length, n0);
    // another match has its own budget
    emu.script({ content: JSON.stringify({ winner: 'a', score: 0.5, note: null }) });
    assert.equal((await c.structured({ ...ask, matchId: 'mC' })).ok, true);
  });

  test('maxConcurrent bounds requests in flight', async () => {
    const c = client(emu, { maxConcurrent: 2 });
    const n0 = emu.chatRequests().length;
    emu.resetInFlightPeak();
    for (let i = 0; i < 4; i++)
      emu.script({ delayMs: 250, content: JSON.stringify({ winner: 'a', score: 0.5, note: null }) });
    const rs = await Promise.all([0, 1, 2, 3].map(() => c.structured(ask)));
    assert.ok(rs.every((r) => r.ok));
    assert.equal(emu.chatRequests().length - n0, 4);
    // Counted at the server, not timed: never more than 2 open at once (4 unlimited), and 2 were (the
    // first two go out in the same tick and each waits 250 ms for its answer).
    assert.equal(emu.inFlightPeak(), 2);
  });
});
