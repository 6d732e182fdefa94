/**
 * The self-harm guard of LLM seats: an action by which the seat would give value away, by its own
 * valuation of its position, beyond a bound is refused before the host logs it — whatever a message talked
 * the model into. The prompt asks the model to trade in its own interest; this makes it so in code.
 *
 * Valued with the engine's own valuation (`tradeGain`, src/engine/valuation.ts; docs/RULES.md §3.2), from
 * the seat's observation (its jobs, blocks and budget; the other side's blocks are public), and always in
 * the trade's favour, so that only a clear giveaway is refused. The engine counts a job that cannot take
 * partial credit only once it is fully fundable (so the first of two blocks a job needs looks worthless,
 * and the block that completes it looks worth the whole job), and a block the seat's own blocks could
 * replace as spare hours (though the seat may want its own blocks elsewhere). So the guard also values the
 * seat's position as if every job took partial credit (progress counted pro rata), and:
 *
 * - what the seat gives is worth the least of the two valuations of the blocks it hands over, plus the
 *   credits it pays;
 * - what it gets is worth the most of: either valuation of the blocks it receives, and what they alone
 *   would do for any one of its pending jobs (pro rata); plus the credits it is paid.
 *
 * A trade is refused when what it gets is worth less than {@link GUARD_KEEP} of what it gives, less
 * {@link GUARD_SLACK} credit. Buying capacity a job can use, step by step, at up to its pro-rata value is
 * never refused; a block none of the seat's jobs can use is worth its spare hours. Checked:
 * - `send_offer`, `counter_offer` (the seat proposes: what it gives, asks for, pays, asks to be paid) and
 *   `accept_offer` (an offer addressed to it): blocks for nothing or far below their value to the seat,
 *   credits for a block none of its jobs can use, credits for nothing;
 * - `bid` in an emergency auction: a bid far above what the lot is worth to the seat;
 * - `finish` while its own blocks can still complete a pending job that is not fully allocated yet.
 *
 * Not checked: coalition commitments (pooled blocks and escrow serve a shared job, valued by no single seat).
 */
import {
  ActionSchema,
  positionParts,
  tradeGain,
  type Job,
  type Observation,
  type ValuedBlock,
} from '../engine/index.js';

/** The code of a refused action (in the seat's feedback and the agent's notes; not an engine code). */
export const GUARD_CODE = 'gives_value_away';
/** Credits a trade may lose whatever it gives (rounding, the smallest spare blocks). */
export const GUARD_SLACK = 1;
/** Share of the value of what the seat gives that what it gets must be worth (both valued in the trade's favour). */
export const GUARD_KEEP = 0.75;

/** Why the guard refused an action: for the seat's own prompt only (it names the seat's private values). */
export interface GuardRefusal {
  code: typeof GUARD_CODE;
  message: string;
}

const usable = (b: { status: string }) => b.status === 'available' || b.status === 'reserved';
const credits = (x: number) => `${x.toFixed(2)} credits`;
/** Whether the match values positions by the best assignment of blocks to jobs (rules v4; v3 greedily), as the engine does. */
const exactFor = (obs: Observation): boolean => obs.rules !== undefined && obs.rules >= 4;
/** The seat's jobs with partial credit for every one (progress counted pro rata). */
const proRata = (jobs: readonly Job[]): Job[] =>
  jobs.map((j) => (j.partialCreditAllowed ? j : { ...j, partialCreditAllowed: true }));

/** A trade as the seat would make it: its blocks it gives, blocks it receives, credits in (negative: out). */
interface Trade {
  give: string[];
  receive: ValuedBlock[];
  paymentIn: number;
}

/**
 * What the seat gives, valued at the least it is worth to it, and what it gets, valued at the most (see the
 * file comment), in credits.
 */
function valueOf(obs: Observation, t: Trade): { given: number; got: number } {
  const { jobs, blocks, budget } = obs.self;
  const exact = exactFor(obs);
  const valuations = [jobs, proRata(jobs)];
  const lost = (js: readonly Job[]) => -tradeGain(js, blocks, budget, t.give, [], 0, exact);
  const given = (t.give.length > 0 ? Math.max(0, Math.min(...valuations.map(lost))) : 0) + Math.max(0, -t.paymentIn);
  let got = 0;
  if (t.receive.length > 0) {
    const marginal = (js: readonly Job[]) =>
      tradeGain(js, blocks, budget, t.give, t.receive, 0, exact) - tradeGain(js, blocks, budget, t.give, [], 0, exact);
    got = Math.max(0, ...valuations.map(marginal));
    for (const j of valuations[1]!)
      if (j.outcome === 'pending') got = Math.max(got, tradeGain([j], [], 0, [], t.receive, 0, exact));
  }
  return { given, got: got + Math.max(0, t.paymentIn) };
}

/** The refusal of a trade that gets back less than it may (see the file comment), or null. */
function judgeTrade(obs: Observation, t: Trade, what: string): GuardRefusal | null {
  const { given, got } = valueOf(obs, t);
  const bound = GUARD_SLACK + (1 - GUARD_KEEP) * given;
  if (got - given >= -bound) return null;
  return {
    code: GUARD_CODE,
    message: `${what} would give away about ${credits(given)} of value to you for about ${credits(got)} back (a loss of ${credits(given - got)}; refused beyond ${credits(bound)}). Trade only for at least three quarters of what you give, as you value it.`,
  };
}

/** Public facts of `ids` as blocks the seat would receive (unknown ids are left out: the engine refuses those). */
function received(obs: Observation, ids: readonly string[]): ValuedBlock[] {
  return ids.flatMap((id) => {
    const b = obs.blocks.find((x) => x.id === id);
    return b ? [{ id: b.id, gpuHours: b.gpuHours, reliability: b.reliability, status: 'available' as const }] : [];
  });
}

/**
 * The guard's verdict on one action the seat is about to take, from its observation just before it:
 * null when allowed (every action it does not value, and malformed ones, which the engine refuses).
 */
export function guardAction(obs: Observation, raw: unknown): GuardRefusal | null {
  const parsed = ActionSchema.safeParse(raw);
  if (!parsed.success) return null;
  const a = parsed.data;
  switch (a.action_type) {
    case 'send_offer':
    case 'counter_offer': {
      const to =
        a.action_type === 'send_offer'
          ? a.target_lab_id
          : (obs.offers.find((o) => o.id === a.offer_id)?.from ?? 'the other lab');
      const what = `Your ${a.action_type === 'send_offer' ? 'offer' : `counter to ${a.offer_id}`} to ${to} (give [${a.block_ids.join(', ')}]${a.payment ? ` + ${credits(a.payment)}` : ''} for [${a.requested_block_ids.join(', ')}]${a.ask ? ` + ${credits(a.ask)}` : ''})`;
      return judgeTrade(
        obs,
        { give: a.block_ids, receive: received(obs, a.requested_block_ids), paymentIn: a.ask - a.payment },
        what,
      );
    }
    case 'accept_offer': {
      const o = obs.offers.find((x) => x.id === a.offer_id && x.to === obs.self.id);
      if (!o) return null;
      const ask = o.ask ?? 0;
      return judgeTrade(
        obs,
        { give: o.requestedBlockIds, receive: received(obs, o.offeredBlockIds), paymentIn: o.payment - ask },
        `Accepting ${o.id} from ${o.from}`,
      );
    }
    case 'bid': {
      const lot = obs.auction?.lot;
      if (!lot) return null;
      return judgeTrade(
        obs,
        {
          give: [],
          receive: [{ id: lot.id, gpuHours: lot.gpuHours, reliability: lot.reliability, status: 'available' }],
          paymentIn: -a.amount,
        },
        `Your bid of ${credits(a.amount)} for ${lot.id}`,
      );
    }
    case 'finish': {
      // A pending, not fully allocated job that the seat's own usable blocks can still complete (the engine's valuation counts it).
      const parts = positionParts(obs.self.jobs, obs.self.blocks.filter(usable), 0, exactFor(obs)).byJob;
      const open = obs.self.jobs.find(
        (j) =>
          j.outcome === 'pending' &&
          j.deadlineRound >= obs.round &&
          j.allocatedHours < j.gpuHoursRequired &&
          (parts[j.id] ?? 0) > 0,
      );
      return open
        ? {
            code: GUARD_CODE,
            message: `Finishing now would forfeit job ${open.id}, which your own blocks can still complete: allocate to it first (allocate_to_job), or wait.`,
          }
        : null;
    }
    default:
      return null;
  }
}
