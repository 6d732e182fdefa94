/**
 * Ballot lifecycle of the round host: open a ballot when a round with two or more judged
 * pitches closes in a match with votes on, close it when the next round closes (or on its clock: at match
 * end a ballot stays open `ballotSeconds`), and keep its timer across restarts. Ballots are events of the
 * match's log (`ballot_opened` / `ballot_deadline` / `ballot_closed`), so their state is a replay like the
 * rest of the match; votes are rows of the store (recordVote, unique per match, pair and voter).
 *
 * Exactly once across processes: every ballot event is appended with expectedSeq and its plan re-checks the
 * fresh match (a ballot already closed/opened by another process is left alone), so two timers or two
 * processes closing one ballot append one `ballot_closed` and post once.
 */
import type { Logger } from 'pino';
import { buildBallot, isOpenAt, type Ballot, type BallotCloseReason } from './ballots/index.js';
import type { Reply } from '../chat/types.js';
import type { MatchState } from '../engine/types.js';
import type { EventStore } from '../store/types.js';
import type { MatchLog } from '../match/match-log.js';
import { renderBallotClosed } from './render.js';
import { ballotVerdictPost } from '../present/verdicts.js';
import { ok } from '../match/results.js';
import { KeyedTimers, type Clock } from '../match/timers.js';
import type { HostedMatch, StoredEvent } from '../match/types.js';

/** Default seconds a ballot stays open after its match ended (config `votes.ballotSeconds`). */
export const DEFAULT_BALLOT_SECONDS = 300;
/** Default votes per person per minute (config `votes.perMinute`). */
export const DEFAULT_VOTES_PER_MINUTE = 30;
/** On restart, finished matches created this long ago or less are checked for a ballot still open. */
export const BALLOT_RESTORE_WINDOW_MS = 30 * 24 * 3600 * 1000;

/** What {@link BallotKeeper} needs; times in ms of `clock` time. */
export interface BallotDeps {
  log: MatchLog;
  store: EventStore;
  clock: Clock;
  logger: Logger;
  /** Posts to a channel (failures logged by the caller). */
  publish: (channelId: string, reply: Reply | null) => Promise<void>;
  /** Runs background work so that the host's idle()/stop() wait for it. */
  track: (p: Promise<unknown>) => void;
  /** Seconds a ballot stays open after the match ended; 0 = it closes with the match. */
  ballotSeconds: number;
}

/** A ballot built from the judged state of a closing round (before `round_closed` is appended). */
export type BuiltBallot = NonNullable<ReturnType<typeof buildBallot>>;

/** True when the match collects votes (set at `new`; logs from before votes = off). */
export const votesOn = (m: HostedMatch): boolean => m.settings.votes === true;

/** The ballot of a closing round's judged state, or null (votes off, fewer than two pitches). */
export function ballotToOpen(m: HostedMatch, judged: () => MatchState): BuiltBallot | null {
  return votesOn(m) ? buildBallot(judged()) : null;
}

/** Opens, times and closes ballots (see the file comment). */
export class BallotKeeper {
  private readonly timers: KeyedTimers;
  private stopped = false;

  constructor(private readonly d: BallotDeps) {
    this.timers = new KeyedTimers(d.clock);
  }

  /** Clear every ballot timer (the host stops); ballots stay open in the log and resume on restore. */
  stop(): void {
    this.stopped = true;
    this.timers.clearAll();
  }

  /** Arm the clock of every open ballot of `m` that has one (idempotent; an overdue one closes at once). */
  arm(m: HostedMatch): void {
    if (this.stopped) return;
    for (const b of m.ballots) {
      const key = `${m.id}:${b.id}`;
      if (b.closed !== null || b.closesAt === null) {
        this.timers.clear(key);
        continue;
      }
      this.timers.arm(key, b.closesAt, () => this.d.track(this.closeNow(m.id, b.id, 'timer')), String(b.closesAt));
    }
  }

  /** Due time of a ballot's pending timer in this process (ms), or null; for tests and diagnostics. */
  dueAt(matchId: string, ballotId: string): number | null {
    return this.timers.dueAt(`${matchId}:${ballotId}`);
  }

  /**
   * Under the match lock, right after `round_closed`: close the ballots that were waiting for this round
   * (reason `next_round`), then open the ballot on the closed round's pitches (`built`; with a clock when
   * the match is now over). Returns the match after, the posts of closed ballots and the opened ballot.
   */
  async afterRoundClose(
    after: HostedMatch,
    built: BuiltBallot | null,
  ): Promise<{ match: HostedMatch; posts: Reply; opened: Ballot | null }> {
    let cur = after;
    const posts: Reply = { public: [], private: [] };
    for (const b of after.ballots) {
      if (b.closed !== null || b.closesAt !== null) continue;
      const r = await this.closeLocked(cur.id, b.id, 'next_round');
      if (r) {
        cur = r.match;
        posts.public.push(...r.posts.public);
      }
    }
    let opened: Ballot | null = null;
    const over = cur.phase === 'over';
    if (built && votesOn(cur) && !(over && this.d.ballotSeconds === 0)) {
      const closesAt = over ? new Date(this.d.clock.now() + this.d.ballotSeconds * 1000).toISOString() : null;
      const r = await this.d.log.append(cur.id, (x) =>
        x.ballots.some((b) => b.round === built.round)
          ? ok(null)
          : ok({ type: 'ballot_opened' as const, ...built, closesAt }),
      );
      if (r.ok) {
        cur = r.value.match;
        opened = cur.ballots.find((b) => b.round === built.round && b.closed === null) ?? null;
      }
    }
    this.arm(cur);
    return { match: cur, posts, opened };
  }

  /**
   * Under the match lock, after the match ended without its last round closing (host `end`, every seat
   * finished): ballots waiting for the next round get a clock (`ballotSeconds` from now), or close now
   * when that is 0. Returns the posts of ballots closed.
   */
  async afterMatchEnd(m: HostedMatch): Promise<Reply> {
    let cur = m;
    const posts: Reply = { public: [], private: [] };
    for (const b of m.ballots) {
      if (b.closed !== null || b.closesAt !== null) continue;
      if (this.d.ballotSeconds === 0) {
        const r = await this.closeLocked(cur.id, b.id, 'match_ended');
        if (r) {
          cur = r.match;
          posts.public.push(...r.posts.public);
        }
        continue;
      }
      const closesAt = new Date(this.d.clock.now() + this.d.ballotSeconds * 1000).toISOString();
      const r = await this.d.log.append(cur.id, (x) => {
        const now = x.ballots.find((y) => y.id === b.id);
        return now && now.closed === null && now.closesAt === null
          ? ok({ type: 'ballot_deadline' as const, ballotId: b.id, closesAt })
          : ok(null);
      });
      if (r.ok) cur = r.value.match;
    }
    this.arm(cur);
    return posts;
  }

  /** Take the match lock and close the ballot if still open; publishes the post. */
  async closeNow(matchId: string, ballotId: string, reason: BallotCloseReason): Promise<Reply | null> {
    let channelId = '';
    const r = await this.d.log.mutex.run(matchId, async () => {
      const m = await this.d.log.refresh(matchId);
      if (!m) return null;
      channelId = m.channelId;
      return this.closeLocked(matchId, ballotId, reason);
    });
    if (r) await this.d.publish(channelId, r.posts);
    return r?.posts ?? null;
  }

  /** Under the lock: append `ballot_closed` unless the ballot is already closed; the channel's post with the tally. */
  private async closeLocked(
    matchId: string,
    ballotId: string,
    reason: BallotCloseReason,
  ): Promise<{ match: HostedMatch; posts: Reply } | null> {
    const r = await this.d.log.append(matchId, (x) => {
      const b = x.ballots.find((y) => y.id === ballotId);
      return b && b.closed === null ? ok({ type: 'ballot_closed' as const, ballotId, reason }) : ok(null);
    });
    this.timers.clear(`${matchId}:${ballotId}`);
    if (!r.ok || !r.value.step) return null;
    const m = r.value.match;
    const b = m.ballots.find((y) => y.id === ballotId);
    if (!b) return null;
    const votes = await this.d.store.listVotes({ matchId, ballotId });
    // The judge's per-claim check of the ballot's pitches was held back while people voted (src/present/verdicts.ts).
    const verdict = ballotVerdictPost(m, await this.d.store.load(matchId), b.round);
    return {
      match: m,
      posts: { public: [renderBallotClosed(m, b, votes), ...(verdict ? [verdict] : [])], private: [] },
    };
  }

  /**
   * On restart: re-arm the clocks of ballots still open on finished matches (a running match's ballots are
   * armed with its round timer). Only ballot events follow a match's end, so the log's last few events
   * tell whether one is open; only those matches are folded. Returns how many matches have an open ballot.
   * `platform` (set): only that platform's matches (another platform's ballot post could not be delivered here).
   */
  async restoreFinished(platform?: string): Promise<number> {
    const since = new Date(this.d.clock.now() - BALLOT_RESTORE_WINDOW_MS).toISOString();
    let count = 0;
    for (const rec of await this.d.store.listMatches({ status: 'over', since, ...(platform ? { platform } : {}) })) {
      const last = await this.d.store.lastSeq(rec.id);
      if (!tailHasOpenBallot(await this.d.store.load(rec.id, Math.max(0, last - 5)))) continue;
      try {
        const m = await this.d.log.mutex.run(rec.id, () => this.d.log.refresh(rec.id));
        if (!m) continue;
        count++;
        this.arm(m);
      } catch (err) {
        this.d.logger.error({ err, matchId: rec.id }, 'cannot restore the ballots of a finished match');
      }
    }
    return count;
  }
}

/** Whether the ballot events at the end of a log leave a ballot open (see {@link BallotKeeper.restoreFinished}). */
export function tailHasOpenBallot(tail: readonly StoredEvent[]): boolean {
  const open = new Set<string>();
  const closed = new Set<string>();
  for (let i = tail.length - 1; i >= 0; i--) {
    const b = tail[i]!.body;
    if (b.type === 'ballot_closed') closed.add(b.ballotId);
    else if (b.type === 'ballot_opened' || b.type === 'ballot_deadline') open.add(b.ballotId);
    else break;
  }
  return [...open].some((id) => !closed.has(id));
}

/** Open ballots of `m` at `now`, newest first. */
export const openBallots = (m: HostedMatch, now: number): Ballot[] =>
  m.ballots.filter((b) => isOpenAt(b, now)).reverse();
