/** Shared set-up of the LLM tests: a client on the emulator, states with pitches, scripted model replies. */
import assert from 'node:assert/strict';
import { applyAction, createMatch, type MatchState } from '../../src/engine/index.js';
import { honestPitch } from '../../src/eval/bench-judge-corpus.js';
import { seatFacts, type JobFacts } from '../../src/engine/judge/facts.js';
import { LlmClient } from '../../src/llm/client.js';
import { LlmConfigSchema, type LlmConfigInput } from '../../src/llm/config.js';
import { unescapeQuoted } from '../../src/llm/quote.js';
import { ruleJudge } from '../../src/engine/judge/rule-judge.js';
import { contenders } from '../../src/agents/llm-judge.js';
import type { OpenAiEmulator, RecordedRequest } from '../emulators/openai.js';

/**
 * A client on the emulator. Its 10 s timeout is for replies the test expects to arrive (the emulator
 * answers at once, but a loaded CI machine can be slow); a test that wants a timeout to fire passes
 * a short `timeoutMs` and has the emulator hang.
 */
export function emuClient(emu: OpenAiEmulator, over: LlmConfigInput = {}): LlmClient {
  return new LlmClient(LlmConfigSchema.parse({ baseUrl: emu.baseURL, timeoutMs: 10_000, maxRetries: 1, ...over }));
}

/** A fresh market_round match at round 0 (3 labs, 2 jobs each). Tests read its facts, never hard-code them. */
export function market(seed = 5): MatchState {
  return createMatch({ task: 'market_round', seed, scripted: {} });
}

/** A seat's true, fully verifiable pitch (its most urgent jobs), as the benchmark writes it. Starts with "Our job". */
export function honest(state: MatchState, lab: string): { text: string; jobs: string[] } {
  const p = honestPitch(state, lab);
  return { text: p.text, jobs: p.jobIds };
}

/** The seat's most urgent pending job. */
export function firstJob(state: MatchState, lab: string): JobFacts {
  const j = seatFacts(state, lab).pending[0];
  assert.ok(j, `${lab} has a pending job`);
  return j;
}

/** A fact-sheet line as the judge prompt writes it. */
export const factLine = (j: JobFacts): string =>
  `job ${j.id}: ${j.unmetHours} of ${j.requiredHours} GPU-hours unmet, deadline round ${j.deadlineRound}`;

/** An allocation of one own block to one own job that the engine accepts, found by dry run. */
export function validAllocation(state: MatchState, lab: string): { job_id: string; block_ids: string[] } {
  for (const j of seatFacts(state, lab).pending) {
    for (const b of Object.values(state.blocks)) {
      if (b.owner !== lab) continue;
      const a = { action_type: 'allocate_to_job', job_id: j.id, block_ids: [b.id] };
      if (applyAction(state, lab, a).result.ok) return { job_id: j.id, block_ids: [b.id] };
    }
  }
  assert.fail(`no valid allocation for ${lab}`);
}

/** Apply pitches (lab → text, job ids) and assert each was recorded. */
export function withPitches(state: MatchState, pitches: Record<string, { text: string; jobs?: string[] }>): MatchState {
  let s = state;
  for (const [lab, p] of Object.entries(pitches)) {
    const r = applyAction(s, lab, { action_type: 'make_pitch', message: p.text, job_ids: p.jobs ?? [] });
    assert.equal(r.result.ok, true, `${lab} pitch: ${r.result.code} ${r.result.message}`);
    s = r.state;
  }
  return s;
}

/** The user message of a judge request. */
export const userText = (req: RecordedRequest | undefined): string =>
  req?.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
export const systemText = (req: RecordedRequest | undefined): string =>
  req?.body?.messages?.find((m) => m.role === 'system')?.content ?? '';

/** Aliases of a judge prompt in the order shown, with the pitch text (unescaped) of each. */
export function pitchesInPrompt(prompt: string): { seat: string; text: string; raw: string }[] {
  const out: { seat: string; text: string; raw: string }[] = [];
  const rx = /<quote-([a-z0-9]+) kind="(?:pitch|counter pitch)" seat="([^"]+)"[^>]*>\n(.*)\n<\/quote-\1>/g;
  for (const m of prompt.matchAll(rx)) out.push({ seat: m[2]!, raw: m[3]!, text: unescapeQuoted(m[3]!) });
  return out;
}

/** Fact-sheet block of one alias (lines until the next blank line). */
export function factsOf(prompt: string, alias: string): string {
  const i = prompt.indexOf(`\n${alias}:\n`);
  if (i < 0) return '';
  const rest = prompt.slice(i + 1);
  const end = rest.indexOf('\n\n');
  return end < 0 ? rest : rest.slice(0, end);
}

export interface SeatVerdict {
  need: number;
  urgency: number;
  specificity_truthfulness: number;
  fairness_coalition: number;
}

/**
 * A judge "model" for the emulator: reads the prompt's aliases, finds which seat holds the pitch that
 * contains `marker` (after anonymisation the pitch text is still readable), and scores it with `hit`,
 * every other seat with `rest`.
 */
export function verdictFor(req: RecordedRequest, pick: (text: string) => SeatVerdict): string {
  const seats = pitchesInPrompt(userText(req));
  return JSON.stringify({
    seats: seats.map((s) => ({ seat: s.seat, ...pick(s.text), rationale: `scored ${s.seat}` })),
    summary: 'done',
  });
}

export const v = (x: number): SeatVerdict => ({
  need: x,
  urgency: x,
  specificity_truthfulness: x,
  fairness_coalition: x,
});

/**
 * A market_round seed (searched from `from`) where the honest pitches of `labs` (default lab_0 and lab_1) can
 * all win and their grounded scores are within CONTEST_BAND of the best: a round the hardened LLM judge
 * asks its model about.
 */
export function contestedSeed(from = 0, labs: readonly string[] = ['lab_0', 'lab_1']): number {
  for (let seed = from; seed < from + 200; seed++) if (contestedState(seed, false, labs)) return seed;
  assert.fail(`no contested market_round seed for ${labs.join(', ')}`);
}

/** The round of `seed` with the honest pitches of `labs`; null (or a failed assertion when `strict`) unless they are all contenders. */
export function contestedState(seed: number, strict?: true, labs?: readonly string[]): MatchState;
export function contestedState(seed: number, strict: false, labs?: readonly string[]): MatchState | null;
export function contestedState(
  seed: number,
  strict = true,
  labs: readonly string[] = ['lab_0', 'lab_1'],
): MatchState | null {
  const base = market(seed);
  let s: MatchState;
  try {
    s = withPitches(base, Object.fromEntries(labs.map((l) => [l, honest(base, l)])));
  } catch (e) {
    if (strict) throw e;
    return null;
  }
  const rule = ruleJudge.judge(s);
  const pitches = s.pitches.filter((p) => p.round === s.round);
  const ok = rule !== null && contenders(s, rule, pitches).length === labs.length;
  if (!ok && strict) assert.fail(`seed ${seed} is not contested`);
  return ok ? s : null;
}
