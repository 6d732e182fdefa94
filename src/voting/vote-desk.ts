/**
 * The `vote` command's work: find the channel's open ballot (a running match's, or a finished
 * match's whose last ballot is still open), serve the voter's next pair blind, and record a vote.
 *
 * Rules: anyone in the channel may vote, seated or not, except on a pair holding their own seat's pitch;
 * one vote per person per pair (the store's unique key, so also across processes and for retried
 * requests); at most `perMinute` votes a person per minute, counted by the store (`EventStore.rateLimit`,
 * src/store/rate-limit.ts): on PostgreSQL across every bot process sharing the database
 * (RateLimiterPostgres), on SQLite per process (RateLimiterMemory).
 * A vote records `seated` (the voter holds a seat in the match: an interested party).
 */
import {
  canonicalChoice,
  checkPair,
  eligiblePairs,
  nextPair,
  shownPair,
  type Ballot,
  type VoteChoice,
} from './ballots/index.js';
import type { Caller, Reply } from '../chat/types.js';
import type { EventStore, MatchRecord } from '../store/types.js';
import type { RateLimit } from '../store/rate-limit.js';
import { BALLOT_RESTORE_WINDOW_MS, openBallots, type BallotKeeper } from './ballot-host.js';
import type { MatchLog } from '../match/match-log.js';
import { renderNothingLeft, renderPair, renderVoteRecorded } from './render.js';
import { seatOfUser } from '../match/replay.js';
import { fail, ok, type HostResult } from '../match/results.js';
import type { Clock } from '../match/timers.js';
import type { HostedMatch } from '../match/types.js';

/** Options of `vote`: all optional (no option = the caller's next pair). `pair` is 1-based. */
export interface VoteInput {
  /** Only this match's ballots (a pressed vote button names the match it was made for); default: the channel's. */
  match?: string;
  ballot?: string;
  pair?: number;
  choice?: VoteChoice;
}

/** What {@link VoteDesk} needs. */
export interface VoteDeskDeps {
  log: MatchLog;
  store: EventStore;
  clock: Clock;
  keeper: BallotKeeper;
  /** Votes one person may cast per minute (across processes on PostgreSQL; see the file comment). */
  perMinute: number;
}

/** Finished matches of a channel whose ballots `vote` still looks at (the newest few). */
const RECENT_FINISHED = 3;

const PAIR_ERRORS = {
  unknown_pair: (b: Ballot) => `Ballot ${b.id} has pairs 1–${b.pairs.length}.`,
  own_pitch: () => "That pair holds your own seat's pitch: you cannot vote on it. `vote` shows a pair you can judge.",
  ballot_closed: (b: Ballot) => `Ballot ${b.id} is closed; its results were posted in the channel.`,
} as const;

/** Serves pairs and records votes (see the file comment). */
export class VoteDesk {
  // Built on the first vote: the library costs ~11 MB of memory at load (the store loads it on first use), and
  // most processes never see a vote.
  private limiter: RateLimit | null = null;

  constructor(private readonly d: VoteDeskDeps) {}

  private rateLimiter(): RateLimit {
    this.limiter ??= this.d.store.rateLimit('vote', { points: this.d.perMinute, durationSeconds: 60 });
    return this.limiter;
  }

  /**
   * Show the caller's next pair (no `choice`), or record a vote. The reply is private to the caller.
   * Errors: `no_ballot`, `unknown_ballot`, `ballot_closed`, `unknown_pair`, `own_pitch`, `duplicate_vote`,
   * `rate_limited` (`unknown_pair` also for a choice without a pair).
   */
  async vote(channelId: string, caller: Caller, input: VoteInput): Promise<HostResult<Reply>> {
    const now = this.d.clock.now();
    const matches = (await this.candidates(channelId)).filter((x) => input.match === undefined || x.id === input.match);
    let m: HostedMatch | undefined;
    let b: Ballot | undefined;
    if (input.ballot !== undefined) {
      const id = input.ballot.trim().toLowerCase();
      for (const x of matches) {
        const found = x.ballots.find((y) => y.id === id);
        if (found) {
          m = x;
          b = found;
          break;
        }
      }
      if (!m || !b) {
        const open = matches.flatMap((x) => openBallots(x, now).map((y) => y.id));
        return fail('unknown_ballot', `No ballot \`${id}\` in this channel.`, { option: 'ballot', validValues: open });
      }
    } else {
      const pick = await this.firstWithWork(matches, caller, now);
      if (!pick)
        return fail(
          'no_ballot',
          'No ballot is open in this channel. One opens when a round with two or more pitches closes in a match with votes on (`new votes:on`).',
        );
      ({ m, b } = pick);
    }
    const lab = seatOfUser(m, caller.userId);
    const judged = await this.judgedBy(m.id, b.id, caller.userId);
    if (input.pair === undefined) {
      if (input.choice !== undefined)
        return fail(
          'unknown_pair',
          'Say which pair you vote on: `vote ballot:<id> pair:<n> choice:<a|b|tie|both_bad>` (the buttons do this).',
          { option: 'pair' },
        );
      const closed = checkPair(b, 1, null, now) === 'ballot_closed';
      if (closed) return fail('ballot_closed', PAIR_ERRORS.ballot_closed(b), { option: 'ballot' });
      return ok(this.serveNext(m, b, caller, lab, judged));
    }
    const bad = checkPair(b, input.pair, lab, now);
    if (bad) {
      const valid = bad === 'unknown_pair' ? { validValues: eligiblePairs(b, lab).map(String) } : {};
      return fail(bad, PAIR_ERRORS[bad](b), { option: bad === 'ballot_closed' ? 'ballot' : 'pair', ...valid });
    }
    const shown = shownPair(m.id, b, input.pair, caller.userId);
    if (input.choice === undefined) {
      const note = judged.has(input.pair) ? { text: `You already voted on pair ${input.pair}.` } : null;
      const post = renderPair(m.id, b, shown, eligiblePairs(b, lab).filter((n) => !judged.has(n)).length);
      return ok({
        public: [],
        private: [{ ...post, ...(note ? { text: `${note.text}\n${post.text}` } : {}), userId: caller.userId }],
      });
    }
    if (judged.has(input.pair)) return this.duplicate(b, input.pair);
    const allowed = await this.rateLimiter().consume(caller.userId);
    if (!allowed.ok) {
      const wait = Math.max(1, Math.ceil(allowed.msBeforeNext / 1000));
      return fail(
        'rate_limited',
        `You are voting too fast: at most ${this.d.perMinute} votes a minute. Try again in ${wait} s.`,
      );
    }
    const [pitchA, pitchB] = b.pairs[input.pair - 1]!;
    const rec = await this.d.store.recordVote({
      matchId: m.id,
      round: b.round,
      ballotId: b.id,
      pair: input.pair,
      pitchA,
      pitchB,
      choice: canonicalChoice(input.choice, shown.shownA.id, pitchA),
      shownFirst: shown.shownA.id,
      voterId: caller.userId,
      seated: lab !== null,
      createdAt: new Date(now).toISOString(),
      anonymous: shown.anonymous,
    });
    if (!rec.ok) {
      if (rec.code === 'duplicate_vote') return this.duplicate(b, input.pair);
      throw new Error(`store refused a vote on ${m.id}/${b.id}/${input.pair}: ${rec.code} ${rec.message ?? ''}`);
    }
    judged.add(input.pair);
    const done = { ...renderVoteRecorded(m, b, shown, input.choice), userId: caller.userId };
    return ok({ public: [], private: [done, ...this.serveNext(m, b, caller, lab, judged).private] });
  }

  private duplicate(b: Ballot, pair: number): HostResult<never> {
    return fail(
      'duplicate_vote',
      `You already voted on pair ${pair} of ballot ${b.id}: one vote per person per pair. \`vote\` shows your next pair.`,
      { option: 'pair' },
    );
  }

  /** The caller's next unjudged pair of `b`, or a note that none is left. */
  private serveNext(m: HostedMatch, b: Ballot, caller: Caller, lab: string | null, judged: ReadonlySet<number>): Reply {
    const next = nextPair(b, lab, judged);
    const eligible = eligiblePairs(b, lab);
    const post =
      next === null
        ? renderNothingLeft(b, eligible.length)
        : renderPair(m.id, b, shownPair(m.id, b, next, caller.userId), eligible.filter((n) => !judged.has(n)).length);
    return { public: [], private: [{ ...post, userId: caller.userId }] };
  }

  private async judgedBy(matchId: string, ballotId: string, voterId: string): Promise<Set<number>> {
    return new Set((await this.d.store.listVotes({ matchId, ballotId, voterId })).map((v) => v.pair));
  }

  /** The first open ballot (running match first, then the newest finished) with a pair left for the caller, else the newest open one. */
  private async firstWithWork(
    matches: readonly HostedMatch[],
    caller: Caller,
    now: number,
  ): Promise<{ m: HostedMatch; b: Ballot } | null> {
    let fallback: { m: HostedMatch; b: Ballot } | null = null;
    for (const m of matches) {
      const lab = seatOfUser(m, caller.userId);
      for (const b of openBallots(m, now)) {
        fallback ??= { m, b };
        if (nextPair(b, lab, await this.judgedBy(m.id, b.id, caller.userId)) !== null) return { m, b };
      }
    }
    return fallback;
  }

  /** The channel's running match and its newest finished ones, folded (their open ballots' timers armed). */
  private async candidates(channelId: string): Promise<HostedMatch[]> {
    const recs: MatchRecord[] = [];
    const active = await this.d.store.activeMatchInChannel(channelId);
    if (active) recs.push(active);
    const since = new Date(this.d.clock.now() - BALLOT_RESTORE_WINDOW_MS).toISOString();
    const over = await this.d.store.listMatches({ channelId, status: 'over', since });
    recs.push(...over.slice(-RECENT_FINISHED).reverse());
    const out: HostedMatch[] = [];
    for (const rec of recs) {
      const m = await this.d.log.mutex.run(rec.id, () => this.d.log.refresh(rec.id));
      if (!m || m.phase === 'lobby') continue;
      this.d.keeper.arm(m);
      out.push(m);
    }
    return out;
  }
}
