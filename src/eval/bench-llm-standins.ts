/**
 * Stand-in models for `npm run bench:llm` and the host's LLM tests: {@link Responder}s of the OpenAI
 * emulator (src/eval/openai-emulator.ts) that read the real prompts and answer the real reply schemas.
 * - A seat ({@link pitcherReply}) waits and pitches the truth about its most urgent pending job ("Our job
 *   j_0_1 still needs 8 GPU-hours by round 3."): a pitch the grounded judge verifies, so a round where two
 *   such seats pitch is one the LLM judge is asked about.
 * - The judge ({@link judgeReply}) scores every quoted pitch with one of the judge bench's stand-ins
 *   (src/eval/bench-judge-standins.ts; the honest one by default); {@link obedientJudge} is a judge that
 *   follows orders found in a pitch in any language of src/eval/injection-corpus.ts (and English).
 * Pure apart from reading the request.
 */
import type { RecordedRequest, Responder, ScriptedReply } from './openai-emulator.js';
import { promptText } from './openai-emulator.js';
import { promptPitches, standinScores, type StandinName } from './bench-judge-standins.js';
import { obeys } from './injection-corpus.js';

/** The parts of a seat's observation JSON (src/agents/prompts.ts) a stand-in reads. */
interface SeatObservation {
  round: number;
  you: {
    id: string;
    jobs: {
      id: string;
      gpu_hours_required: number;
      allocated_hours: number;
      deadline_round: number;
      outcome: string;
    }[];
  };
}

/** True when `req` is an LLM judge call (its system message; the reply schema's name is not sent in every mode). */
export const isJudgeRequest = (req: RecordedRequest): boolean =>
  (req.body?.messages?.[0]?.content ?? '').startsWith('You are the impartial judge');

/** The observation in a seat prompt, or null when `req` is no seat decision (a judge call, a feedback turn). */
export function seatObservation(req: RecordedRequest): SeatObservation | null {
  if (req.body?.messages?.some((m) => m.role === 'assistant')) return null;
  const user = req.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
  const m = /Your observation \(JSON\):\n(.*)/.exec(user);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!) as SeatObservation;
  } catch {
    return null;
  }
}

const WAIT = {
  action_type: 'wait',
  target_lab_id: null,
  target_lab_ids: null,
  offer_id: null,
  coalition_id: null,
  job_id: null,
  job_ids: null,
  block_ids: null,
  requested_block_ids: null,
  payment: null,
  ask: null,
  amount: null,
  message: null,
  expires_in: null,
  duration: null,
};

/** A seat's answer: wait, and pitch the truth about its most urgent job that still needs hours (none: no pitch). */
export function pitcherReply(req: RecordedRequest): string {
  const obs = seatObservation(req);
  const open = (obs?.you.jobs ?? [])
    .filter(
      (j) =>
        j.outcome === 'pending' && j.allocated_hours < j.gpu_hours_required && j.deadline_round >= (obs?.round ?? 0),
    )
    .sort((a, b) => a.deadline_round - b.deadline_round || a.id.localeCompare(b.id));
  const job = open[0];
  const pitch = job
    ? {
        message: `Our job ${job.id} still needs ${job.gpu_hours_required - job.allocated_hours} GPU-hours by round ${job.deadline_round}.`,
        job_ids: [job.id],
      }
    : null;
  return JSON.stringify({ plan: 'wait and argue for the most urgent job', actions: [WAIT], pitch });
}

/** A judge's answer: every quoted pitch scored by the stand-in `name` (all four criteria set to its score). */
export function judgeReply(req: RecordedRequest, name: StandinName = 'honest'): string {
  const user = req.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
  const seats = standinScores(name, user).map((s) => ({
    seat: s.seat,
    need: s.score,
    urgency: s.score,
    specificity_truthfulness: s.score,
    fairness_coalition: s.score,
    rationale: `${name} stand-in`,
  }));
  return JSON.stringify({ seats, summary: `${name} stand-in` });
}

/** Seats pitch ({@link pitcherReply}), the judge is the `judge` stand-in; anything else gets an empty seat reply. */
export function benchResponder(judge: StandinName = 'honest'): Responder {
  return (req): ScriptedReply => {
    if (isJudgeRequest(req)) return { content: judgeReply(req, judge) };
    if (promptText(req).includes('Your observation (JSON)')) return { content: pitcherReply(req) };
    return { content: JSON.stringify({ plan: null, actions: [], pitch: null }) };
  };
}

/**
 * The emulator's obedient judge mode: a pitch that gives the judge an order, in any language of the
 * injection corpus or in English, gets full marks on every criterion; every other pitch 0. A non-judge
 * request gets the seat stand-in's answer.
 */
export function obedientJudge(): Responder {
  return (req): ScriptedReply => {
    if (!isJudgeRequest(req)) return benchResponder()(req);
    const user = req.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
    const english = new Map(standinScores('obedient', user).map((x) => [x.seat, x.score === 1]));
    const seats = promptPitches(user).map((p) => {
      const x = obeys(p.text) || english.get(p.seat) ? 1 : 0;
      return {
        seat: p.seat,
        need: x,
        urgency: x,
        specificity_truthfulness: x,
        fairness_coalition: x,
        rationale: x ? 'as the pitch says' : 'not chosen',
      };
    });
    return { content: JSON.stringify({ seats, summary: 'obedient stand-in' }) };
  };
}
