/**
 * Blind voting on the web, with the rules of the chat `vote` command (src/voting/vote-desk.ts)
 * through the same pure ballot functions (src/voting/ballots) and the same vote rows (store.recordVote):
 * the ballots of the link's channel (its running match, then its newest finished ones) that are open now;
 * authors hidden until the vote; pitch order randomised per voter (shownPair, the same order as in chat);
 * one vote per person per pair (the store's unique key); never on a pair holding the voter's own seat's
 * pitch; at most `perMinute` votes a person per minute in this process; `seated` recorded.
 *
 * The person is the link's platform user (src/web/links): a web vote is that user's vote, as if cast in chat.
 * Read-only towards the log: a ballot past its clock counts as closed (isOpenAt); the bots close it.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { BALLOT_RESTORE_WINDOW_MS } from '../voting/ballot-host.js';
import {
  canonicalChoice,
  checkPair,
  eligiblePairs,
  isOpenAt,
  nextPair,
  shownPair,
  type Ballot,
  type ShownPair,
  type VoteChoice,
} from '../voting/ballots/index.js';
import { seatOfUser } from '../match/replay.js';
import type { HostedMatch } from '../match/types.js';
import type { EventStore } from '../store/types.js';
import type { MatchCache } from './cache.js';

/** Finished matches of a channel whose ballots are looked at (the newest few), as in chat. */
const RECENT_FINISHED = 3;

/** A voter: the link's platform user and the channel it votes in. */
export interface WebVoter {
  userId: string;
  channelId: string;
}

/** A pair to show: which ballot, the pair as this voter sees it, and how many are left for them. */
export interface ServedPair {
  match: HostedMatch;
  ballot: Ballot;
  shown: ShownPair;
  left: number;
}

/** Codes of refused web votes (as in chat) plus `unknown_ballot` for a ballot not open in the link's channel. */
export type WebVoteError =
  'unknown_ballot' | 'unknown_pair' | 'own_pitch' | 'ballot_closed' | 'duplicate_vote' | 'rate_limited';

/** Serves pairs and records votes for link holders (see the file comment). */
export class WebVotes {
  private readonly limiter: RateLimiterMemory;

  constructor(
    private readonly store: EventStore,
    private readonly cache: MatchCache,
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.limiter = new RateLimiterMemory({ points: perMinute, duration: 60 });
  }

  /** The channel's running match and newest finished ones (folded), running first. */
  private async candidates(channelId: string): Promise<HostedMatch[]> {
    const ids: string[] = [];
    const active = await this.store.activeMatchInChannel(channelId);
    if (active) ids.push(active.id);
    const since = new Date(this.now() - BALLOT_RESTORE_WINDOW_MS).toISOString();
    const over = await this.store.listMatches({ channelId, status: 'over', since });
    ids.push(
      ...over
        .slice(-RECENT_FINISHED)
        .reverse()
        .map((r) => r.id),
    );
    const out: HostedMatch[] = [];
    for (const id of ids) {
      const m = (await this.cache.get(id))?.match;
      if (m && m.phase !== 'lobby') out.push(m);
    }
    return out;
  }

  private async judged(matchId: string, ballotId: string, voterId: string): Promise<Set<number>> {
    return new Set((await this.store.listVotes({ matchId, ballotId, voterId })).map((v) => v.pair));
  }

  /** The voter's next pair over the channel's open ballots, or null when none is left (with how many ballots are open). */
  async next(v: WebVoter): Promise<{ pair: ServedPair | null; openBallots: number }> {
    const now = this.now();
    let open = 0;
    for (const m of await this.candidates(v.channelId)) {
      const lab = seatOfUser(m, v.userId);
      for (const b of [...m.ballots].reverse()) {
        if (!isOpenAt(b, now)) continue;
        open++;
        const done = await this.judged(m.id, b.id, v.userId);
        const n = nextPair(b, lab, done);
        if (n !== null)
          return {
            pair: {
              match: m,
              ballot: b,
              shown: shownPair(m.id, b, n, v.userId),
              left: eligiblePairs(b, lab).filter((x) => !done.has(x)).length,
            },
            openBallots: open,
          };
      }
    }
    return { pair: null, openBallots: open };
  }

  /**
   * Record `choice` (relative to what this voter was shown) on pair `pair` of ballot `ballotId` of match
   * `matchId`. The match must be one of the link channel's candidates.
   */
  async cast(
    v: WebVoter,
    matchId: string,
    ballotId: string,
    pair: number,
    choice: VoteChoice,
  ): Promise<
    | { ok: true; match: HostedMatch; ballot: Ballot; shown: ShownPair }
    | { ok: false; code: WebVoteError; retryInSeconds?: number }
  > {
    const now = this.now();
    const m = (await this.candidates(v.channelId)).find((x) => x.id === matchId);
    const b = m?.ballots.find((x) => x.id === ballotId);
    if (!m || !b) return { ok: false, code: 'unknown_ballot' };
    const lab = seatOfUser(m, v.userId);
    const bad = checkPair(b, pair, lab, now);
    if (bad) return { ok: false, code: bad };
    if ((await this.judged(m.id, b.id, v.userId)).has(pair)) return { ok: false, code: 'duplicate_vote' };
    try {
      await this.limiter.consume(v.userId);
    } catch (e) {
      if (!(e instanceof RateLimiterRes)) throw e;
      return { ok: false, code: 'rate_limited', retryInSeconds: Math.max(1, Math.ceil(e.msBeforeNext / 1000)) };
    }
    const shown = shownPair(m.id, b, pair, v.userId);
    const [pitchA, pitchB] = b.pairs[pair - 1]!;
    const rec = await this.store.recordVote({
      matchId: m.id,
      round: b.round,
      ballotId: b.id,
      pair,
      pitchA,
      pitchB,
      choice: canonicalChoice(choice, shown.shownA.id, pitchA),
      shownFirst: shown.shownA.id,
      voterId: v.userId,
      seated: lab !== null,
      createdAt: new Date(now).toISOString(),
      anonymous: shown.anonymous,
    });
    if (!rec.ok) {
      if (rec.code === 'duplicate_vote') return { ok: false, code: 'duplicate_vote' };
      throw new Error(`store refused a web vote on ${m.id}/${b.id}/${pair}: ${rec.code} ${rec.message ?? ''}`);
    }
    return { ok: true, match: m, ballot: b, shown };
  }
}
