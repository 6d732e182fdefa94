/**
 * Copy-on-write editing of a MatchState (docs/RULES.md §0: the input state is never mutated, and no
 * step deep-copies the whole state). A Draft shallow-copies a record map the first time one of its
 * entries is written and clones only the entities it touches; everything else is shared with the base.
 *
 * Convention for callers: an entity returned by a write accessor (`lab()`, `block()`, …) is the
 * draft's own shallow clone and may be assigned to; its nested arrays/objects are still shared, so
 * replace them (`job.allocatedBlockIds = [...old, id]`) instead of mutating them in place.
 * `coalition()` is the exception: its commitments and hoursUsedByPartners are cloned too.
 *
 * Speed (every action and every round close goes through here): a copy is `{ ...x }` in effect — the
 * same own keys in the same order, save a job's or block's optional keys (see the entity copies below) —
 * but the state and the common entities are copied as object literals where their keys are the engine's
 * usual ones, because a spread's call site in V8 becomes slow for good once it has seen more than four
 * object shapes. (A literal copies string keys only; states are JSON data, which has no symbol keys.)
 */
import type { Block, Coalition, Job, Lab, LabId, MatchState, Message, Offer, SeatStats } from './types.js';
import type { RewardSource } from './types.js';
import type { RewardColumn } from './reward.js';
import { round4 } from './util.js';
import { withAdded } from './records.js';

type Rec<T> = Record<string, T>;

/**
 * The state's keys in the order createMatch writes them (types.ts). {@link copyState} copies a state with
 * these keys in this order as an object literal, which is several times cheaper than a spread once the
 * spread's call site has seen more than a few object shapes; any other state is spread (same result).
 */
const STATE_KEYS: readonly string[] = [
  'version',
  'config',
  'params',
  'round',
  'over',
  'labIds',
  'labs',
  'blocks',
  'jobs',
  'offers',
  'coalitions',
  'nextOfferSeq',
  'nextCoalitionSeq',
  'messages',
  'pitches',
  'judgeHistory',
  'shockSchedule',
  'shockHistory',
  'auction',
  'ledger',
  'seats',
  'pitchFacts',
];

/**
 * True when `x` has `keys[0, required)` in that order, followed by any of the optional `keys[required…]`
 * in any order (an optional key may be missing in a state parsed from JSON, which drops undefined keys).
 */
function fitsKeys(x: object, keys: readonly string[], required = keys.length): boolean {
  let i = 0;
  for (const k in x) {
    if (i < required ? k !== keys[i] : keys.indexOf(k, required) < 0) return false;
    i++;
  }
  return i >= required;
}

/** A shallow copy of a state, keys in the same order (`{ ...b }`). */
function copyState(b: MatchState): MatchState {
  // `pitchFacts` (rules v4) is optional: undefined under v3, and JSON omits it.
  if (!fitsKeys(b, STATE_KEYS, STATE_KEYS.length - 1)) return { ...b };
  // Written out (keep in step with STATE_KEYS and MatchState: the compiler flags a missing key).
  const s: MatchState = {
    version: b.version,
    config: b.config,
    params: b.params,
    round: b.round,
    over: b.over,
    labIds: b.labIds,
    labs: b.labs,
    blocks: b.blocks,
    jobs: b.jobs,
    offers: b.offers,
    coalitions: b.coalitions,
    nextOfferSeq: b.nextOfferSeq,
    nextCoalitionSeq: b.nextCoalitionSeq,
    messages: b.messages,
    pitches: b.pitches,
    judgeHistory: b.judgeHistory,
    shockSchedule: b.shockSchedule,
    shockHistory: b.shockHistory,
    auction: b.auction,
    ledger: b.ledger,
    seats: b.seats,
    pitchFacts: b.pitchFacts,
  };
  return s;
}

/**
 * Entity copies (`{ ...x }`) written out as object literals. Entities come in several object shapes (the
 * first matches of a process leave transient ones, states parsed from JSON lack undefined keys, …), too
 * many for a fast spread; a literal costs the same whatever the source's shape. A literal is used only
 * when the source has the keys listed here in this order (the order the engine creates them in: world.ts,
 * auction.ts, create.ts, handlers/offers.ts); any other object is spread, keeping its keys and their order.
 *
 * The optional keys of blocks (tradedFrom) and jobs (tradeCredit, heldBonus) are the exception: the engine
 * creates them as undefined, and a copy always carries them in this order, as undefined when its source
 * lacks them (a state parsed from JSON). Every block and every job then has one object layout whatever
 * happens to it, so the code that reads them stays monomorphic: ≈ 18 % of a gym step (docs/BENCHMARKS.md).
 * A copy differs from a spread only in undefined keys and in the order of those optional keys, which
 * JSON data does not distinguish.
 */
const LAB_KEYS = ['id', 'publicName', 'budget', 'initialBudget', 'reputation', 'finished'];
const BLOCK_KEYS = [
  'id',
  'owner',
  'gpuCount',
  'duration',
  'gpuHours',
  'reliability',
  'energyCost',
  'status',
  'reservedFor',
  'committedTo',
  'usedFor',
  'tradedFrom',
];
const JOB_KEYS = [
  'id',
  'owner',
  'gpuHoursRequired',
  'deadlineRound',
  'baseValue',
  'urgencyMultiplier',
  'minReliability',
  'partialCreditAllowed',
  'allocatedHours',
  'allocatedBlockIds',
  'energyCost',
  'outcome',
  'realisedValue',
  'surge',
  'shockAffected',
  'tradeCredit',
  'heldBonus',
];
const OFFER_KEYS = [
  'id',
  'from',
  'to',
  'offeredBlockIds',
  'requestedBlockIds',
  'payment',
  'ask',
  'message',
  'roundCreated',
  'expiresRound',
  'status',
  'linkedOfferId',
];
const SEAT_KEYS = [
  'cumulativeReward',
  'roundReward',
  'lastBreakdown',
  'actionsThisRound',
  'recentFingerprints',
  'steps',
  'invalidActions',
  'grudges',
  'pendingReward',
  'grudgeEnds',
];

function copyLab(x: Lab): Lab {
  if (!fitsKeys(x, LAB_KEYS)) return { ...x };
  return {
    id: x.id,
    publicName: x.publicName,
    budget: x.budget,
    initialBudget: x.initialBudget,
    reputation: x.reputation,
    finished: x.finished,
  };
}

function copyBlock(x: Block): Block {
  if (!fitsKeys(x, BLOCK_KEYS, BLOCK_KEYS.length - 1)) return { ...x };
  const {
    id,
    owner,
    gpuCount,
    duration,
    gpuHours,
    reliability,
    energyCost,
    status,
    reservedFor,
    committedTo,
    usedFor,
    tradedFrom,
  } = x;
  return {
    id,
    owner,
    gpuCount,
    duration,
    gpuHours,
    reliability,
    energyCost,
    status,
    reservedFor,
    committedTo,
    usedFor,
    tradedFrom,
  };
}

/** A shallow copy of a job as the Draft makes its copies (`{ ...x }`, with the optional keys as above). */
export function copyJob(x: Job): Job {
  if (!fitsKeys(x, JOB_KEYS, JOB_KEYS.length - 2)) return { ...x };
  const {
    id,
    owner,
    gpuHoursRequired,
    deadlineRound,
    baseValue,
    urgencyMultiplier,
    minReliability,
    partialCreditAllowed,
  } = x;
  const {
    allocatedHours,
    allocatedBlockIds,
    energyCost,
    outcome,
    realisedValue,
    surge,
    shockAffected,
    tradeCredit,
    heldBonus,
  } = x;
  return {
    id,
    owner,
    gpuHoursRequired,
    deadlineRound,
    baseValue,
    urgencyMultiplier,
    minReliability,
    partialCreditAllowed,
    allocatedHours,
    allocatedBlockIds,
    energyCost,
    outcome,
    realisedValue,
    surge,
    shockAffected,
    tradeCredit,
    heldBonus,
  };
}

function copyOffer(x: Offer): Offer {
  if (!fitsKeys(x, OFFER_KEYS)) return { ...x };
  const {
    id,
    from,
    to,
    offeredBlockIds,
    requestedBlockIds,
    payment,
    ask,
    message,
    roundCreated,
    expiresRound,
    status,
    linkedOfferId,
  } = x;
  return {
    id,
    from,
    to,
    offeredBlockIds,
    requestedBlockIds,
    payment,
    ask,
    message,
    roundCreated,
    expiresRound,
    status,
    linkedOfferId,
  };
}

function copySeat(x: SeatStats): SeatStats {
  // `grudgeEnds` (rules v4) is optional: undefined under v3, and JSON omits it.
  if (!fitsKeys(x, SEAT_KEYS, SEAT_KEYS.length - 1)) return { ...x };
  const {
    cumulativeReward,
    roundReward,
    lastBreakdown,
    actionsThisRound,
    recentFingerprints,
    steps,
    invalidActions,
    grudges,
    pendingReward,
    grudgeEnds,
  } = x;
  return {
    cumulativeReward,
    roundReward,
    lastBreakdown,
    actionsThisRound,
    recentFingerprints,
    steps,
    invalidActions,
    grudges,
    pendingReward,
    grudgeEnds,
  };
}

/** Seat ids of the presets' matches (2–5 seats), in seat order. */
const SEAT_IDS = ['lab_0', 'lab_1', 'lab_2', 'lab_3', 'lab_4'];

/**
 * `{ ...r }` for a record keyed by seat ids (labs, seats): when its keys are lab_0…lab_{n−1} in order,
 * 2 ≤ n ≤ 5, a literal with those keys (same keys, order and values). A spread copy site that has seen
 * more than four record shapes takes V8's slow path (one property definition at a time), and the seats
 * record is copied at every action.
 */
function copySeatRecord<T>(r: Rec<T>): Rec<T> {
  let n = 0;
  for (const k in r) if (k !== SEAT_IDS[n++]) return { ...r };
  switch (n) {
    case 2:
      return { lab_0: r.lab_0!, lab_1: r.lab_1! };
    case 3:
      return { lab_0: r.lab_0!, lab_1: r.lab_1!, lab_2: r.lab_2! };
    case 4:
      return { lab_0: r.lab_0!, lab_1: r.lab_1!, lab_2: r.lab_2!, lab_3: r.lab_3! };
    case 5:
      return { lab_0: r.lab_0!, lab_1: r.lab_1!, lab_2: r.lab_2!, lab_3: r.lab_3!, lab_4: r.lab_4! };
    default:
      return { ...r };
  }
}

// One copy site per record kind (the *W methods): a record's keys are ids, so records come in many
// shapes and a spread is the best there is; named property access (`this.s.blocks`, not `this.s[key]`)
// keeps the loads around it monomorphic.

export class Draft {
  /** The state being built: a shallow copy of the base whose touched records are copies. */
  readonly s: MatchState;

  /** Whether any block of the base is reserved (settlement.ts), null until asked: a per-draft memo. */
  baseReserved: boolean | null = null;

  constructor(readonly base: MatchState) {
    this.s = copyState(base);
  }

  /** True while nothing has been written: every field of the draft's state is still the base's. */
  pristine(): boolean {
    // Every key, whatever the state carries: a hand-written list would miss a field added later.
    const s = this.s as unknown as Record<string, unknown>;
    const b = this.base as unknown as Record<string, unknown>;
    for (const k in s) if (s[k] !== b[k]) return false;
    return true;
  }

  private labsW(): Rec<Lab> {
    if (this.s.labs === this.base.labs) this.s.labs = copySeatRecord(this.base.labs);
    return this.s.labs;
  }
  private blocksW(): Rec<Block> {
    if (this.s.blocks === this.base.blocks) this.s.blocks = { ...this.base.blocks };
    return this.s.blocks;
  }
  private jobsW(): Rec<Job> {
    if (this.s.jobs === this.base.jobs) this.s.jobs = { ...this.base.jobs };
    return this.s.jobs;
  }
  private offersW(): Rec<Offer> {
    if (this.s.offers === this.base.offers) this.s.offers = { ...this.base.offers };
    return this.s.offers;
  }
  private coalitionsW(): Rec<Coalition> {
    if (this.s.coalitions === this.base.coalitions) this.s.coalitions = { ...this.base.coalitions };
    return this.s.coalitions;
  }
  private seatsW(): Rec<SeatStats> {
    if (this.s.seats === this.base.seats) this.s.seats = copySeatRecord(this.base.seats);
    return this.s.seats;
  }

  /**
   * The draft's own copy of entity `id`: `cur` is the entry of the draft's map; it is the draft's own
   * unless it is still the base's entry (an entry the draft inserted has no base entry).
   */
  lab(id: LabId): Lab {
    const map = this.labsW();
    const cur = map[id];
    if (cur === undefined) throw new Error(`draft: no labs entry ${id}`);
    if (cur !== this.base.labs[id]) return cur;
    return (map[id] = copyLab(cur));
  }
  block(id: string): Block {
    const map = this.blocksW();
    const cur = map[id];
    if (cur === undefined) throw new Error(`draft: no blocks entry ${id}`);
    if (cur !== this.base.blocks[id]) return cur;
    return (map[id] = copyBlock(cur));
  }
  job(id: string): Job {
    const map = this.jobsW();
    const cur = map[id];
    if (cur === undefined) throw new Error(`draft: no jobs entry ${id}`);
    if (cur !== this.base.jobs[id]) return cur;
    return (map[id] = copyJob(cur));
  }
  offer(id: string): Offer {
    const map = this.offersW();
    const cur = map[id];
    if (cur === undefined) throw new Error(`draft: no offers entry ${id}`);
    if (cur !== this.base.offers[id]) return cur;
    return (map[id] = copyOffer(cur));
  }
  seat(id: LabId): SeatStats {
    const map = this.seatsW();
    const cur = map[id];
    if (cur === undefined) throw new Error(`draft: no seats entry ${id}`);
    if (cur !== this.base.seats[id]) return cur;
    return (map[id] = copySeat(cur));
  }
  coalition(id: string): Coalition {
    const baseC = this.base.coalitions[id];
    const map = this.coalitionsW();
    const cur = map[id];
    if (cur === undefined) throw new Error(`draft: no coalitions entry ${id}`);
    const c = cur !== baseC ? cur : (map[id] = { ...cur });
    if (c.commitments === baseC?.commitments) {
      const commitments: Coalition['commitments'] = {};
      for (const m of c.members) {
        const cm = c.commitments[m];
        if (cm) commitments[m] = { ...cm };
      }
      c.commitments = commitments;
      c.hoursUsedByPartners = { ...c.hoursUsedByPartners };
    }
    return c;
  }

  addBlock(b: Block): void {
    this.blocksW()[b.id] = b;
  }
  /**
   * Add jobs (a demand surge adds one per lab) as one new record, in order (as adding them one by one).
   * Adding several keys to one copied record makes V8 turn it into a slow dictionary-mode object (the
   * fifth key did), and one such record seen by a `for…in` loop slows that loop for good: the record is
   * built whole, as a copy of a fast-mode template of its keys (see {@link withAdded}).
   */
  addJobs(jobs: readonly Job[]): void {
    this.s.jobs = withAdded(this.s.jobs, jobs);
  }
  /** Add blocks as one new record, in order (as {@link addJobs}: a fast-mode record, never key by key). */
  addBlocks(blocks: readonly Block[]): void {
    this.s.blocks = withAdded(this.s.blocks, blocks);
  }
  addOffer(o: Offer): void {
    this.offersW()[o.id] = o;
  }
  addCoalition(c: Coalition): void {
    this.coalitionsW()[c.id] = c;
  }
  addMessage(m: Message): void {
    // A spread copy: same elements as `concat([m])` (message lists have no holes), about 3× cheaper.
    this.s.messages = [...this.s.messages, m];
  }

  /** Add to a seat's pending reward (a reward earned outside its own steps; see SeatStats.pendingReward). */
  addPending(lab: LabId, col: RewardColumn, v: number): void {
    const seat = this.seat(lab);
    const pending = { ...seat.pendingReward };
    pending[col] = round4(pending[col] + v);
    seat.pendingReward = pending;
  }

  /** Move money between budgets (credits, 2 dp). */
  setBudget(lab: LabId, budget: number): void {
    this.lab(lab).budget = Math.round(budget * 100) / 100;
  }
}

/** Where reward of an event goes: to a seat's breakdown being built (step or close) or its pending. */
export interface RewardSink {
  /** Add `v` (raw column units) to `lab`'s `col`; `source` says why (the reward ledger, ledger.ts). */
  add(lab: LabId, col: RewardColumn, v: number, source: RewardSource): void;
}
