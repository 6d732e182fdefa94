/**
 * What the engine shows: a seat's own observation, the public view of a match, and the report of a
 * round close. None of these carries another seat's private values (budget, jobs, deadlines, values,
 * policy): the property tests check it.
 */
import type {
  AuctionLot,
  BlockStatus,
  CoalitionStatus,
  Job,
  JudgeDecision,
  LabId,
  Offer,
  RewardBreakdown,
  RewardEntry,
  RulesVersion,
  Seed,
  ShockEvent,
  TaskName,
  Difficulty,
  Block,
  Coalition,
  Message,
  Pitch,
} from './types.js';
import type { DeadOffer } from './dead-offers.js';

/** Coarse public budget band (the original's, docs/RULES.md §A.1): < 60 low, < 115 medium, else high. */
export type BudgetBand = 'low' | 'medium' | 'high';
/** Coarse public demand level (the original's, docs/RULES.md §A.1). */
export type DemandLevel = 'low' | 'medium' | 'high';

/** Public facts about a block (all blocks are public, whoever owns them). */
export interface PublicBlock {
  id: string;
  owner: LabId;
  gpuCount: number;
  duration: number;
  gpuHours: number;
  reliability: number;
  energyCost: number;
  status: BlockStatus;
}

/** Public facts about another lab. */
export interface PublicLab {
  id: LabId;
  publicName: string;
  reputation: number;
  budgetBand: BudgetBand;
  demandLevel: DemandLevel;
  blockIds: string[];
  finished: boolean;
}

/** Public facts about a coalition (members, status, committed block ids; not escrow amounts). */
export interface PublicCoalition {
  id: string;
  proposer: LabId;
  members: LabId[];
  purpose: string;
  status: CoalitionStatus;
  expiresRound: number;
  consented: LabId[];
  committedBlockIds: string[];
}

/** One seat's observation: its own state in full, the rest public only. */
export interface Observation {
  task: TaskName;
  difficulty: Difficulty;
  round: number;
  maxRounds: number;
  over: boolean;
  self: {
    id: LabId;
    publicName: string;
    budget: number;
    reputation: number;
    finished: boolean;
    jobs: Job[];
    blocks: Block[];
    /** Credits this seat holds in coalition escrow. */
    escrow: number;
    actionsLeftThisRound: number;
    /**
     * Labs this seat holds a grudge against (SeatStats.grudges: senders of offers exploitative for it,
     * coalition breachers). Read by the retaliatory policy (§7.1). Optional so older views stay valid.
     */
    grudges?: LabId[];
  };
  labs: PublicLab[];
  blocks: PublicBlock[];
  /** Active offers this seat sent or received. */
  offers: Offer[];
  /** Coalitions this seat belongs to, in full; others as public facts. */
  myCoalitions: Coalition[];
  coalitions: PublicCoalition[];
  /** Last 20 messages this seat can see (public ones and its own direct messages). */
  messages: Message[];
  /** This round's pitches so far. */
  pitches: Pitch[];
  shockHistory: ShockEvent[];
  lastJudgeDecision: JudgeDecision | null;
  cumulativeReward: number;
  lastReward: RewardBreakdown;
  /**
   * The emergency auction open this round (docs/RULES.md §5.1): its lot, reserve price and this seat's
   * own sealed bid (null if none); null when no auction is open. Other seats' bids are never shown.
   * Optional so older views stay valid.
   */
  auction?: AuctionView | null;
  /**
   * The rules version of the match (docs/RULES.md §0) when it is 4 or later; absent under v3 (so a v3
   * observation keeps its JSON). Policies value positions by the best assignment from v4 on.
   */
  rules?: RulesVersion;
}

/** An open emergency auction as one seat sees it (docs/RULES.md §5.1). */
export interface AuctionView {
  round: number;
  lot: AuctionLot;
  /** Lowest valid bid, credits. */
  reserve: number;
  /** This seat's own bid (credits), null if it has not bid; absent in the public view. */
  myBid?: number | null;
}

/** The match as the channel sees it. */
export interface PublicView {
  task: TaskName;
  difficulty: Difficulty;
  seed: Seed;
  round: number;
  maxRounds: number;
  over: boolean;
  labs: (PublicLab & { cumulativeReward: number })[];
  blocks: PublicBlock[];
  offers: Offer[];
  coalitions: PublicCoalition[];
  messages: Message[];
  pitches: Pitch[];
  shockHistory: ShockEvent[];
  judgeHistory: JudgeDecision[];
  /** The emergency auction open this round, without bids (docs/RULES.md §5.1); optional for older views. */
  auction?: AuctionView | null;
}

/** A trade executed at or before a round close. */
export interface TradeEvent {
  offerId: string;
  from: LabId;
  to: LabId;
  offeredBlockIds: string[];
  requestedBlockIds: string[];
  payment: number;
  /** Credits the recipient paid the sender (the offer's ask; rules v3). */
  ask?: number;
}

/** A job settled at its deadline (public: who and the outcome, never the value). */
export interface SettlementEvent {
  lab: LabId;
  jobId: string;
  outcome: 'completed' | 'partial' | 'missed';
}

/**
 * What happened to a judge bonus at a round close (docs/RULES.md §6.5). `held`: a winning pitch's bonus
 * (share) now waits on one of its argued-for jobs; `paid`: a settling job paid its held bonus × credit
 * into judge_argument; `forfeited`: bonus lost. Reasons: held `won`; paid `completed` | `partial`;
 * forfeited `missed` (the job settled without hours), `partial` (the unpaid rest), `covered` (every job
 * the pitch named was already fully allocated), `no_job` (no open job argued for), `cap` (the job already
 * holds 0.15). Public except `amount` of a `partial` payment, which reveals the job's allocated share.
 */
export interface PitchBonusEvent {
  /** The round whose close this happened at. */
  round: number;
  lab: LabId;
  /** The job concerned (an id the pitch named, or one it argued for); null for `no_job`. */
  jobId: string | null;
  kind: 'held' | 'paid' | 'forfeited';
  /** Bonus held, paid or forfeited (judge_argument units, 4 dp). */
  amount: number;
  reason: 'won' | 'completed' | 'partial' | 'missed' | 'covered' | 'no_job' | 'cap';
  /**
   * At the judging close only: whether the winning pitch named this job (structured job_ids or its
   * public text). A job it argued for without naming it is private to its seat until the job settles.
   */
  named?: boolean;
}

/**
 * What happened when a round closed. Private parts: `rewards` and `entries` (per seat), `scriptedActions[].message`, `.reward`, `.entries`
 * (result sentences may name the actor's own values); show others only types and codes (gym: seatReport).
 */
export interface RoundReport {
  round: number;
  /** Actions the scripted seats took, with their results (public: codes and messages). */
  scriptedActions: {
    lab: LabId;
    action_type: string;
    ok: boolean;
    code: string;
    message: string;
    /** The scripted seat's step reward (private to it); absent for a policy error. */
    reward?: RewardBreakdown;
    /** The step's reward entries (ActionResult.entries). */
    entries?: RewardEntry[];
    /** The action as the policy returned it (successful steps only), for the round's public narration. */
    action?: unknown;
    /** Ids the step created (offer, coalition). */
    created?: { offerId?: string; coalitionId?: string };
  }[];
  trades: TradeEvent[];
  judge: JudgeDecision | null;
  shocks: ShockEvent[];
  settlements: SettlementEvent[];
  /** Coalitions that closed or lapsed at this close. */
  coalitions: { id: string; status: CoalitionStatus }[];
  /** Per seat: the round-close reward breakdown (private to that seat). */
  rewards: Record<LabId, RewardBreakdown>;
  /** Cumulative reward per seat after this close (public leaderboard). */
  leaderboard: { lab: LabId; publicName: string; cumulativeReward: number }[];
  /** True when this close ended the match (final settlement done). */
  final: boolean;
  /** Judge bonuses held, paid and forfeited at this close (docs/RULES.md §6.5); absent in reports before rules v2. */
  pitchBonus?: PitchBonusEvent[];
  /** Late jobs and supply revealed at this close for the round that opens (§1.1); absent when none. */
  arrivals?: ArrivalEvent;
  /**
   * What this close added to each seat's round-close breakdown, with sources (settlements, coalitions,
   * pitch bonuses, budget). A seat's breakdown in `rewards` also holds its pending reward from other
   * seats' steps (ActionResult.entries of those steps). Absent in reports of older engines.
   */
  entries?: RewardEntry[];
  /** Active offers closed at this close because one of their blocks is gone (dead-offers.ts); absent when none. */
  deadOffers?: DeadOffer[];
}

/**
 * What arrived when a round opened (docs/RULES.md §1.1, rules v3): one new job per unfinished lab (its
 * facts private to that lab; the id alone is public) and the late supply (public).
 */
export interface ArrivalEvent {
  /** The round that opens with them (the close of round − 1 revealed them). */
  round: number;
  jobs: { lab: LabId; jobId: string }[];
  blocks: { blockId: string; owner: LabId; gpuHours: number }[];
}
