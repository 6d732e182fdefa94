/**
 * A stand-in LLM seat that haggles (no network): a {@link Responder} for the OpenAI emulator that reads the
 * real seat prompt (the compact observation JSON of src/agents/prompts.ts) and answers offers addressed to
 * it the way a sensible model would: it prices a block it is offered by what its own pending jobs earn per
 * GPU-hour, accepts a price within 25 % of that, counters a dearer one at its own price with a reason, and
 * rejects a block none of its jobs can use. Used by test/adapters/console/haggle.test.ts and, run directly,
 * for a hands-on haggle in the terminal:
 *
 *   npx tsx test/emulators/haggler.ts            # prints the base URL, serves until Ctrl-C
 *   ARENA_LLM_BASE_URL=<url> OPENAI_API_KEY=sk-test npm start -- --seat lab_1=llm:haggler
 */
import { pathToFileURL } from 'node:url';
import { startOpenAiEmulator, type RecordedRequest, type Responder } from './openai.js';

interface ObsJob {
  id: string;
  gpu_hours_required: number;
  allocated_hours: number;
  deadline_round: number;
  value_if_completed: number;
  min_reliability: number;
  outcome: string;
}
interface ObsBlock {
  id: string;
  owner?: string;
  gpu_hours: number;
  reliability: number;
}
interface ObsOffer {
  id: string;
  from: string;
  to: string;
  gives: string[];
  wants: string[];
  payment: number;
  ask: number;
  status: string;
}
interface Obs {
  round: number;
  you: { id: string; budget: number; jobs: ObsJob[] };
  market_blocks: ObsBlock[];
  offers: ObsOffer[];
}

const KEYS = [
  'action_type',
  'target_lab_id',
  'target_lab_ids',
  'offer_id',
  'coalition_id',
  'job_id',
  'job_ids',
  'block_ids',
  'requested_block_ids',
  'payment',
  'ask',
  'amount',
  'message',
  'expires_in',
  'duration',
];
/** An action object with every key present (null when unused), as the strict reply schema asks. */
function act(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(KEYS.map((k) => [k, fields[k] ?? null]));
}

/** The observation JSON in the seat prompt, or null when the request is not a seat decision. */
export function observationOf(req: RecordedRequest): Obs | null {
  const user = req.body?.messages?.find((m) => m.role === 'user')?.content ?? '';
  const m = /Your observation \(JSON\):\n(.*)/.exec(user);
  return m ? (JSON.parse(m[1]!) as Obs) : null;
}

/** Credits a block is worth to the seat: half of what its best usable pending job earns per GPU-hour. */
export function priceOf(obs: Obs, block: ObsBlock): { price: number; job: ObsJob | null } {
  const usable = obs.you.jobs.filter(
    (j) =>
      j.outcome === 'pending' &&
      j.deadline_round >= obs.round &&
      j.min_reliability <= block.reliability &&
      j.allocated_hours < j.gpu_hours_required,
  );
  let best: ObsJob | null = null;
  let perHour = 0;
  for (const j of usable) {
    const r = j.value_if_completed / j.gpu_hours_required;
    if (r > perHour) [best, perHour] = [j, r];
  }
  const hours = Math.min(block.gpu_hours, best ? best.gpu_hours_required - best.allocated_hours : 0);
  return { price: Math.round(hours * perHour) / 2, job: best };
}

/** The haggling decision for one seat prompt: at most one answer per offer addressed to the seat. */
export function haggle(obs: Obs): Record<string, unknown>[] {
  const actions: Record<string, unknown>[] = [];
  for (const o of obs.offers) {
    if (o.to !== obs.you.id || o.status !== 'active' || o.gives.length !== 1 || o.wants.length > 0) continue;
    const block = obs.market_blocks.find((b) => b.id === o.gives[0]);
    if (!block) continue;
    const { price, job } = priceOf(obs, block);
    const what = `${block.gpu_hours} GPU-h at ${block.reliability}`;
    if (!job || price <= 0) {
      actions.push(act({ action_type: 'reject_offer', offer_id: o.id }));
      actions.push(
        act({
          action_type: 'send_message',
          target_lab_id: o.from,
          message: `No thanks: none of my open jobs can use ${what} before its deadline.`,
        }),
      );
    } else if (o.ask - o.payment <= price * 1.25 && o.ask - o.payment <= obs.you.budget) {
      actions.push(act({ action_type: 'accept_offer', offer_id: o.id }));
      actions.push(
        act({
          action_type: 'send_message',
          target_lab_id: o.from,
          message: `Deal: ${what} goes straight into my job due round ${job.deadline_round}.`,
        }),
      );
    } else {
      actions.push(
        act({
          action_type: 'counter_offer',
          offer_id: o.id,
          block_ids: [],
          requested_block_ids: [block.id],
          payment: price,
          ask: 0,
          message: `${what} covers part of my job due round ${job.deadline_round}, but ${o.ask.toFixed(2)} credits is more than it earns me. ${price.toFixed(2)} credits and it's mine.`,
        }),
      );
    }
  }
  return actions.length ? actions : [act({ action_type: 'wait' })];
}

/** Responder: seat prompts get {@link haggle}'s answer; feedback turns and anything else an empty reply. */
export const hagglerResponder: Responder = (req) => {
  const feedback = req.body?.messages?.some((m) => m.role === 'assistant');
  const obs = feedback ? null : observationOf(req);
  if (!obs) return { content: JSON.stringify({ plan: null, actions: [], pitch: null }) };
  return { content: JSON.stringify({ plan: 'price blocks by what my jobs earn', actions: haggle(obs), pitch: null }) };
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const emu = await startOpenAiEmulator({ responder: hagglerResponder });
  console.log(emu.baseURL);
  process.on('SIGINT', () => void emu.close().then(() => process.exit(0)));
}
