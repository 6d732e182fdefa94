/**
 * RoundHost: the lifecycle of hosted matches, one per channel — lobby (`new`, `join`, `assign`), `start`
 * (empty seats get scripted archetypes), rounds closed by `done` from every person/agent seat or by the
 * round timer, `end`; restart recovery with {@link RoundHost.restore}. Every input that changes a match is
 * an event in the store; the match is the replay of its events (replay.ts). Commands on one match are
 * serialised by a per-match lock; different matches run in parallel.
 *
 * Errors are {@link HostResult} values (codes in results.ts); engine results of actions pass through.
 */
import { DEFAULT_DATA_POLICY, type DataPolicy } from '../match/data-policy.js';
import { randomUUID } from 'node:crypto';
import { pino, type Logger } from 'pino';
import type { Caller, Reply } from '../chat/types.js';
import { RULES_VERSION, applyAction, labIdsFor } from '../engine/index.js';
import type { ActionResult, LabId } from '../engine/types.js';
import type { EventStore, MatchRecord } from '../store/types.js';
import type { BallotCloseReason } from '../voting/ballots/index.js';
import { DEFAULT_AGENT_TIMEOUT_MS, type AgentFactory } from '../agents/seat.js';
import { BallotKeeper, DEFAULT_BALLOT_SECONDS, DEFAULT_VOTES_PER_MINUTE } from '../voting/ballot-host.js';
import {
  archetypeAt,
  boundedAction,
  checkDriver,
  lobbyCheck,
  matchChanged,
  resolveLab,
  roundClosed,
  roundJudging,
  runningSeat,
  withModel,
} from '../match/inputs.js';
import { DEFAULT_JUDGE_TIMEOUT_MS } from '../match/judging.js';
import { MatchLog, type Plan } from '../match/match-log.js';
import { labName, mergeReplies, renderEnded, renderStart, type CloseReason } from '../present/render.js';
import { ReplayError, seatOfUser } from '../match/replay.js';
import { fail, ok, type HostResult } from '../match/results.js';
import { RoundRunner } from './rounds.js';
import { resolveSettings } from '../match/settings.js';
import { systemClock, type Clock } from '../match/timers.js';
import { VoteDesk, type VoteInput } from '../voting/vote-desk.js';
import type { RoundHostOptions } from './options.js';
import type { HostedMatch, MatchSettings, SeatDriver } from '../match/types.js';
import { personName } from '../chat/player-text.js';
import { withCard } from '../present/card.js';

export type { RoundHostOptions } from './options.js';

/** A match's log is abandoned if it is still empty this long after creation (its creator died mid-`new`). */
const ABANDON_AFTER_MS = 60_000;

/** Hosts the matches of every channel (see the file comment); several processes may share one event store. */
export class RoundHost {
  private readonly store: EventStore;
  private readonly log: MatchLog;
  private readonly runner: RoundRunner;
  private readonly admins: Set<string>;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly agentFor: AgentFactory | undefined;
  private readonly ballots: BallotKeeper;
  private readonly desk: VoteDesk;

  constructor(private readonly opts: RoundHostOptions) {
    this.store = opts.store;
    this.clock = opts.clock ?? systemClock;
    this.logger = opts.logger ?? pino({ level: 'silent' });
    this.admins = new Set(opts.adminUserIds ?? []);
    this.agentFor = opts.agentFor;
    this.log = new MatchLog(opts.store, this.clock);
    const judgeTimeoutMs = opts.judgeTimeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS;
    this.ballots = new BallotKeeper({
      log: this.log,
      store: opts.store,
      clock: this.clock,
      logger: this.logger,
      publish: (channelId, reply) => this.runner.publish(channelId, reply),
      track: (p) => this.runner.track(p),
      ballotSeconds: opts.votes?.ballotSeconds ?? DEFAULT_BALLOT_SECONDS,
    });
    this.desk = new VoteDesk({
      log: this.log,
      store: opts.store,
      clock: this.clock,
      keeper: this.ballots,
      perMinute: opts.votes?.perMinute ?? DEFAULT_VOTES_PER_MINUTE,
    });
    this.runner = new RoundRunner({
      ballots: this.ballots,
      log: this.log,
      store: opts.store,
      publish: opts.publish,
      judge: opts.judge,
      judgeTimeoutMs,
      agentFor: opts.agentFor,
      agentTimeoutMs: opts.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS,
      claimGraceMs: opts.claimGraceMs ?? judgeTimeoutMs + 10_000,
      onMatchOver: opts.onMatchOver,
      autoDone: opts.autoDone ?? true,
      agentExtraTurns: opts.agentExtraTurns ?? 2,
      reminders: opts.reminders,
      clock: this.clock,
      logger: this.logger,
    });
  }

  /** Reload every unfinished match, re-arm timers, close overdue rounds (posting them). Returns how many matches resumed. */
  async restore(): Promise<number> {
    let count = 0;
    // Matches are independent: restore them in parallel (an overdue close may wait for the judge).
    const restoreOne = async (rec: MatchRecord) => {
      const reply = await this.log.mutex.run(rec.id, async () => {
        // A corrupt log must not keep the other matches from resuming: log it and skip the match.
        try {
          return await restoreLocked(rec);
        } catch (err) {
          this.logger.error({ err, matchId: rec.id }, 'cannot restore match');
          return null;
        }
      });
      const channelId = this.log.cached(rec.id)?.channelId;
      if (channelId) await this.runner.publish(channelId, reply);
    };
    const restoreLocked = async (rec: MatchRecord) => {
      const m = await this.loadRecord(rec);
      if (!m) return null;
      count++;
      if (m.phase === 'running' && rec.status === 'lobby') await this.store.setMatchStatus(m.id, 'running');
      return this.runner.resume(m);
    };
    // Only this process's platform, when set: another platform's posts could not be delivered from here.
    const platform = this.opts.platform;
    const unfinished = (await this.store.listUnfinished()).filter(
      (rec) => platform === undefined || rec.platform === platform,
    );
    await Promise.all(unfinished.map(restoreOne));
    // Finished matches whose last ballot is still open: re-arm its clock (an overdue one closes now).
    const ballots = await this.ballots.restoreFinished(platform);
    this.logger.info({ count, ballots }, 'round host restored matches');
    return count;
  }

  /** The lobby/running match of the channel, or null. */
  async current(channelId: string): Promise<HostedMatch | null> {
    const r = await this.inChannel(channelId, async (m) => ok(m));
    return r.ok ? r.value : null;
  }

  /** A match by id as its log says now (lobby, running or over), or null for an unknown id. */
  async matchById(id: string): Promise<HostedMatch | null> {
    const rec = await this.store.getMatch(id);
    if (!rec) return null;
    return this.log.mutex.run(id, async () => (await this.log.refresh(id)) ?? null);
  }

  /** The lobby/running matches that play in threads of `parentChannelId`, oldest first. */
  async matchesUnder(parentChannelId: string): Promise<HostedMatch[]> {
    return this.liveOf(await this.store.activeMatchesUnder(parentChannelId));
  }

  /**
   * The lobby/running matches of `platform` in which `userId` holds a seat or is the host, oldest first (a
   * person's own matches: `me` outside a match, the Slack App Home). Reads every unfinished match's log
   * (cached after the first time), so its cost grows with the matches running at once.
   */
  async matchesOf(userId: string, platform: string): Promise<HostedMatch[]> {
    const recs = (await this.store.listUnfinished()).filter((r) => r.platform === platform);
    return (await this.liveOf(recs)).filter((m) => m.hostUserId === userId || seatOfUser(m, userId) !== null);
  }

  /** The live (lobby/running) folds of `recs`; a log that cannot be read is logged and left out. */
  private async liveOf(recs: readonly MatchRecord[]): Promise<HostedMatch[]> {
    const out: HostedMatch[] = [];
    for (const rec of recs) {
      try {
        const m = await this.log.mutex.run(rec.id, () => this.loadRecord(rec));
        if (m) out.push(m);
      } catch (err) {
        this.logger.warn({ err, matchId: rec.id }, 'match log unreadable; left out of the list');
      }
    }
    return out;
  }

  /**
   * Open a lobby; the caller becomes its host. With `thread.cardMessageId` the match plays in its own thread
   * (`channelId`, of the caller's `parentChannelId`), whose card is that message. Errors: match_exists, invalid_settings.
   */
  async create(
    channelId: string,
    platform: string,
    caller: Caller,
    settings: Partial<MatchSettings>,
    thread: { cardMessageId?: string } = {},
  ): Promise<HostResult<HostedMatch>> {
    const s = resolveSettings(settings, this.opts.defaults);
    if (!s.ok) return s;
    const parent =
      caller.parentChannelId !== undefined && caller.parentChannelId !== channelId ? caller.parentChannelId : undefined;
    for (let attempt = 0; attempt < 3; attempt++) {
      const id = `m_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const rec = await this.store.createMatch({
        id,
        channelId,
        platform,
        createdAt: this.log.nowIso(),
        ...(parent ? { parentChannelId: parent } : {}),
      });
      if (rec.ok) {
        const m = await this.log.mutex.run(id, () =>
          this.log.init(id, {
            type: 'match_created',
            channelId,
            platform,
            hostUserId: caller.userId,
            ...(parent ? { parentChannelId: parent } : {}),
            ...(parent && thread.cardMessageId ? { cardMessageId: thread.cardMessageId } : {}),
            ...(caller.spaceId ? { spaceId: caller.spaceId } : {}),
            settings: s.value,
          }),
        );
        return ok(m);
      }
      if (rec.code === 'channel_busy') {
        const busy = await this.store.activeMatchInChannel(channelId);
        // Retry only when the busy match turned out to be an abandoned empty log (now marked over).
        if (busy) await this.log.mutex.run(busy.id, () => this.loadRecord(busy));
        const still = await this.store.activeMatchInChannel(channelId);
        if (still) return fail('match_exists', 'This channel already has a match; `end` it first.');
      }
    }
    return fail('busy', 'Could not create the match; please try again.');
  }

  /** Claim a seat (the given lab id/name, else the first free one). Errors: no_match, not_in_lobby, already_seated, unknown_seat, seat_taken. */
  async join(
    channelId: string,
    caller: Caller,
    lab?: string,
  ): Promise<HostResult<{ lab: string; match: HostedMatch }>> {
    let chosen = '';
    return this.inChannel(channelId, async (m0) =>
      this.appendThen(
        m0.id,
        (m) => {
          const lobby = lobbyCheck(m);
          if (lobby) return lobby;
          if (seatOfUser(m, caller.userId))
            return fail('already_seated', `You already hold ${labName(m, seatOfUser(m, caller.userId) ?? '')}.`);
          const labs = labIdsFor(m.settings.task, m.settings.seed);
          if (lab !== undefined) {
            const target = resolveLab(m, labs, lab);
            if (!target)
              return fail('unknown_seat', `No seat "${lab}" in this match.`, { option: 'lab', validValues: labs });
            if (m.drivers[target])
              return fail('seat_taken', `${labName(m, target)} is taken.`, {
                option: 'lab',
                validValues: labs.filter((l) => !m.drivers[l]),
              });
            chosen = target;
          } else {
            const free = labs.find((l) => !m.drivers[l]);
            if (!free) return fail('seat_taken', 'Every seat is taken.');
            chosen = free;
          }
          return ok({ type: 'seat_claimed', lab: chosen, userId: caller.userId, displayName: caller.displayName });
        },
        async (match) => ok({ lab: chosen, match }),
      ),
    );
  }

  /** Host/admin: drive a free seat by a scripted policy or an LLM model. Errors: not_host, not_in_lobby, unknown_seat, seat_taken, invalid_driver, model_not_allowed, budget_exhausted. */
  async assign(channelId: string, caller: Caller, lab: string, driver: SeatDriver): Promise<HostResult<HostedMatch>> {
    return this.inChannel(channelId, async (m0) => {
      // A model on a spent daily budget would only wait every round: refused up front (src/app/llm.ts).
      // Counted against the match's host (who seats its models) and its budget channel (a thread's parent).
      const where = { channelId: m0.parentChannelId ?? channelId, personId: m0.hostUserId };
      const spent = driver.kind === 'llm' && this.mayHost(m0, caller) ? await this.opts.llmSeatRefusal?.(where) : null;
      if (spent) return fail('budget_exhausted', spent);
      return this.appendThen(
        m0.id,
        (m) => {
          if (!this.mayHost(m, caller)) return fail('not_host', 'Only the match host or an admin can assign seats.');
          const lobby = lobbyCheck(m);
          if (lobby) return lobby;
          const labs = labIdsFor(m.settings.task, m.settings.seed);
          const target = resolveLab(m, labs, lab);
          if (!target)
            return fail('unknown_seat', `No seat "${lab}" in this match.`, { option: 'lab', validValues: labs });
          if (m.drivers[target]?.kind === 'human')
            return fail('seat_taken', `${labName(m, target)} is held by a person.`);
          const modelled = withModel(driver, this.opts.defaultAgentModel, this.opts.allowedModels);
          if (!modelled.ok) return modelled;
          const checked = checkDriver(modelled.value, this.agentFor);
          return checked.ok ? ok({ type: 'seat_assigned', lab: target, driver: checked.value }) : checked;
        },
        async (match) => ok(match),
      );
    });
  }

  /** Host/admin: start; empty seats get archetypes by seat index (RULES §8 order). Reply: the start and round-open posts. */
  async start(channelId: string, caller: Caller): Promise<HostResult<{ match: HostedMatch; reply: Reply }>> {
    return this.inChannel(channelId, async (m0) =>
      this.appendThen(
        m0.id,
        (m) => {
          if (!this.mayHost(m, caller)) return fail('not_host', 'Only the match host or an admin can start the match.');
          const lobby = lobbyCheck(m);
          if (lobby) return lobby;
          const drivers: Record<LabId, SeatDriver> = {};
          labIdsFor(m.settings.task, m.settings.seed).forEach((lab, i) => {
            drivers[lab] = m.drivers[lab] ?? { kind: 'scripted', policy: archetypeAt(i, m.settings.seed) };
          });
          return ok({ type: 'match_started', drivers, rulesVersion: RULES_VERSION });
        },
        async (match) => {
          await this.store.setMatchStatus(match.id, 'running');
          const more = await this.runner.opened(match);
          const now = this.log.cached(match.id) ?? match;
          return ok({ match: now, reply: withCard(mergeReplies(renderStart(match), more), now) });
        },
      ),
    );
  }

  /**
   * A seat owner's action (raw object or JSON text, parsed by the engine). By default the engine's result is
   * returned even when it is an error (its penalty is part of the game, e.g. for agents and the gym). With
   * `onlyValid` (the command catalogue: a person's bad input changes nothing) the engine checks the action
   * against the very state it would change, under the match's lock, and an invalid one is not logged: the
   * error carries the engine's code (src/engine/codes.ts) and message. With `round` (the 0-based round the
   * command was written for) an action that arrives after that round closed is refused with `round_closed`
   * and nothing is logged: it is never moved to the next round. With `matchId` (the match it was written for)
   * an action that finds another match in the channel is refused with `match_changed`.
   */
  async act(
    channelId: string,
    caller: Caller,
    action: unknown,
    opts: { onlyValid?: boolean; round?: number; matchId?: string } = {},
  ): Promise<HostResult<{ result: ActionResult; match: HostedMatch; reply?: Reply }>> {
    const raw = boundedAction(action);
    return this.inChannel(channelId, async (m0) => {
      let actor = '';
      const r = await this.log.append(m0.id, (m) => {
        const other = matchChanged(m, opts.matchId);
        if (other) return other;
        const bad = runningSeat(m, caller);
        if (!bad.ok) return bad;
        const late = roundClosed(m, opts.round) ?? roundJudging(m);
        if (late) return late;
        if (opts.onlyValid && m.state) {
          const check = applyAction(m.state, bad.value, raw).result;
          if (!check.ok) return { ok: false, error: { code: check.code, message: check.message } };
        }
        actor = bad.value;
        return ok({ type: 'action', lab: bad.value, userId: caller.userId, action: raw });
      });
      if (!r.ok) return r;
      const result = r.value.step?.result;
      if (!result) throw new Error('action event without result');
      // A scripted seat the action addressed answers at once (an offer, a counter, a direct message).
      const answered = result.ok ? await this.runner.answer(r.value.match, actor, raw, result.created) : null;
      const after = await this.runner.afterAction(answered?.match ?? r.value.match);
      const reply =
        answered && (answered.posts.public.length || answered.posts.private.length)
          ? mergeReplies(answered.posts, after)
          : after;
      const match = this.log.cached(m0.id) ?? r.value.match;
      return ok(reply ? { result, match, reply } : { result, match });
    });
  }

  /**
   * The caller's seat is done for the round; `closed` holds the round-close posts when this closed the round
   * (not published: the caller renders them). With `round` (0-based), a `done` that arrives after that round
   * closed is refused with `round_closed` (it never ends the next round early); with `matchId`, one that finds
   * another match in the channel with `match_changed`. `how`: 'undo' takes a done (theirs or an automatic one)
   * back within the round; 'auto-on' / 'auto-off' set, for this match, whether the host may mark them done when
   * nothing is left to decide (src/match/idle.ts).
   */
  async done(
    channelId: string,
    caller: Caller,
    round?: number,
    how: 'done' | 'undo' | 'auto-on' | 'auto-off' = 'done',
    matchId?: string,
  ): Promise<HostResult<{ match: HostedMatch; closed: Reply | null }>> {
    return this.inChannel(channelId, async (m0) =>
      this.appendThen(
        m0.id,
        (m) => {
          const other = matchChanged(m, matchId);
          if (other) return other;
          const seat = runningSeat(m, caller);
          if (!seat.ok) return seat;
          const lab = seat.value;
          if (how === 'auto-on' || how === 'auto-off') {
            const on = how === 'auto-on';
            return (m.autoDoneOff ?? []).includes(lab) === !on
              ? ok(null)
              : ok({ type: 'seat_setting', lab, autoDone: on });
          }
          const late = roundClosed(m, round) ?? roundJudging(m);
          if (late) return late;
          if (how === 'undo') return m.done.includes(lab) ? ok({ type: 'seat_undone', lab }) : ok(null);
          if (m.done.includes(lab) || m.state?.labs[lab]?.finished) return ok(null);
          return ok({ type: 'seat_done', lab });
        },
        async (match) => {
          if (how !== 'done') return ok({ match: this.log.cached(match.id) ?? match, closed: null });
          const closed = await this.runner.closeIfNoOne(match);
          // A round without a timer now waiting for one person only: that person is pinged (reminders.ts).
          if (!closed)
            this.runner.track(
              this.runner.reminders
                .afterDone(this.log.cached(match.id) ?? match)
                .then((ping) => this.runner.publish(match.channelId, ping)),
            );
          return ok({ match: this.log.cached(match.id) ?? match, closed });
        },
      ),
    );
  }

  /** Host/admin: end the match now (lobby: cancel; running: standings so far). Reply: the end post. */
  async end(channelId: string, caller: Caller): Promise<HostResult<{ match: HostedMatch; reply: Reply }>> {
    let wasRunning = false;
    return this.inChannel(channelId, async (m0) =>
      this.appendThen(
        m0.id,
        (m) => {
          if (!this.mayHost(m, caller)) return fail('not_host', 'Only the match host or an admin can end the match.');
          if (m.phase === 'over') return fail('match_over', 'The match is already over.');
          wasRunning = m.phase === 'running';
          return ok({ type: 'match_ended', by: caller.userId, reason: 'host' });
        },
        async (match) => {
          await this.store.setMatchStatus(match.id, 'over');
          this.runner.matchOver(match.id);
          const closed = await this.ballots.afterMatchEnd(match);
          const now = this.log.cached(match.id) ?? match;
          return ok({
            match: now,
            reply: withCard(mergeReplies(renderEnded(match, personName(caller.displayName), wasRunning), closed), now),
          });
        },
      ),
    );
  }

  /** Close the match's current round now (timers, admin tools), exactly once across processes; publishes and returns the posts (null if nothing closed). */
  async closeRoundNow(matchId: string, reason: CloseReason, round?: number): Promise<Reply | null> {
    return this.runner.closeNow(matchId, reason, round);
  }

  /**
   * `vote`: the caller's next pair of the channel's open ballot (blind), or record a vote on a pair
   *. Private reply. Errors: see {@link VoteDesk.vote}.
   */
  async vote(channelId: string, caller: Caller, input: VoteInput): Promise<HostResult<Reply>> {
    return this.desk.vote(channelId, caller, input);
  }

  /** Close a ballot now (host tools, tests); publishes and returns its post, null if it was not open. */
  async closeBallotNow(matchId: string, ballotId: string, reason: BallotCloseReason = 'host'): Promise<Reply | null> {
    return this.ballots.closeNow(matchId, ballotId, reason);
  }

  /** Due time (ms) of a ballot's clock in this process, or null (no clock, closed, or not armed here). */
  ballotDueAt(matchId: string, ballotId: string): number | null {
    return this.ballots.dueAt(matchId, ballotId);
  }

  /** The store matches and votes live in (read-only uses: `stats`). */
  get eventStore(): EventStore {
    return this.store;
  }

  /** The research-data policy (RoundHostOptions.data): host-seeded matches, the data notice. */
  get dataPolicy(): DataPolicy {
    return this.opts.data ?? DEFAULT_DATA_POLICY;
  }

  /** The lab a person holds in `match`, or null. */
  seatOf(match: HostedMatch, userId: string): string | null {
    return seatOfUser(match, userId);
  }

  /**
   * Wait until background work (timer closes, agent turns, posts) has finished; for tests and shutdown.
   * Agent turns wait for their agent or its timeout: with a fake clock, advance it (or stop()) first.
   */
  idle(): Promise<void> {
    return this.runner.idle();
  }

  /** Clear timers, abort agent turns, wait for running work. The store stays open (the caller owns it). */
  stop(): Promise<void> {
    return this.runner.stop();
  }

  /** One of the configured `adminUserIds` (the operators), or with `platform` also a platform admin (`Caller.isAdmin`). */
  isAdmin(caller: Caller, platform = true): boolean {
    return (platform && caller.isAdmin) || this.admins.has(caller.userId);
  }

  private mayHost(m: HostedMatch, caller: Caller): boolean {
    return this.isAdmin(caller) || caller.userId === m.hostUserId;
  }

  /** Append the planned event, then (still under the lock) run `then` with the match after it. */
  private async appendThen<T>(
    id: string,
    plan: Plan,
    then: (m: HostedMatch) => Promise<HostResult<T>>,
  ): Promise<HostResult<T>> {
    const r = await this.log.append(id, plan);
    return r.ok ? then(r.value.match) : r;
  }

  /** Run `fn` under the lock of the channel's lobby/running match (refreshed from the store). */
  private async inChannel<T>(
    channelId: string,
    fn: (m: HostedMatch) => Promise<HostResult<T>>,
  ): Promise<HostResult<T>> {
    const rec = await this.store.activeMatchInChannel(channelId);
    const none = fail<T>('no_match', 'There is no match in this channel. Open one with `new`.');
    if (!rec) return none;
    return this.log.mutex.run(rec.id, async () => {
      const m = await this.loadRecord(rec);
      if (!m) return none;
      this.runner.ensureTimer(m);
      return fn(m);
    });
  }

  /** Under the lock: fold a record's log; fix a stale status; drop abandoned empty logs. Null if not live. */
  private async loadRecord(rec: MatchRecord): Promise<HostedMatch | null> {
    let m: HostedMatch | null;
    try {
      m = await this.log.refresh(rec.id);
    } catch (err) {
      // Older engine rules cannot be resumed (rewards would differ): retire the match, free its channel.
      if (!(err instanceof ReplayError) || err.code !== 'old_rules') throw err;
      this.logger.warn({ matchId: rec.id, reason: err.message }, 'match from older engine rules retired');
      await this.store.setMatchStatus(rec.id, 'over');
      this.runner.matchOver(rec.id);
      return null;
    }
    if (!m) {
      if (this.clock.now() - Date.parse(rec.createdAt) > ABANDON_AFTER_MS)
        await this.store.setMatchStatus(rec.id, 'over');
      return null;
    }
    if (m.phase === 'over') {
      await this.store.setMatchStatus(rec.id, 'over');
      this.runner.matchOver(rec.id);
    }
    return m.phase === 'over' ? null : m;
  }
}
