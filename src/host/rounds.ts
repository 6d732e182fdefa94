/**
 * Round orchestration of the host: opening a round (timer, agent seats), closing it exactly once (judge
 * decision → `round_closed` event → posts), and the background work this starts. All game rules stay in
 * the engine; this only decides *when* things happen.
 *
 * Exactly once: a close first takes the store claim `round_close:<match>:<round>`, so of several
 * processes (or timers) only one calls the judge and posts. The log is the final guard: `round_closed`
 * is appended with expectedSeq, and a closer that finds the round already closed does nothing. A process
 * that loses the claim re-checks after a grace period and closes the round itself if the claimant died
 * before recording it.
 *
 * The judge off the lock (docs/LLM.md "Round closes"): when the judge will ask a model, the claimant
 * appends `round_judging` under the lock (from then on the round takes no input, so the judged state is
 * the state that closes), releases the lock, waits for the model, then takes the lock again and appends
 * `round_closed` with the decision after re-checking that the round is still open and its state unchanged.
 * Commands keep answering meanwhile. Closes the rule judge decides alone (no pitch a model could change)
 * stay one step under the lock.
 */
import type { Logger } from 'pino';
import type { Reply } from '../chat/types.js';
import type { JudgeDecision, LabId } from '../engine/types.js';
import type { AsyncJudge } from '../engine/judge/types.js';
import type { EventStore } from '../store/types.js';
import type { AgentFactory } from '../agents/seat.js';
import { withLlmMatch } from '../agents/llm-scope.js';
import { AgentSeats, isOpen, takesInput } from './agent-seats.js';
import { ballotToOpen, type BallotKeeper, type BuiltBallot } from '../voting/ballot-host.js';
import { changedWhileJudged, decideRound, decisionWithoutModel, stateForJudge } from '../match/judging.js';
import type { MatchLog } from '../match/match-log.js';
import {
  agentMessages,
  mergeReplies,
  renderAgentActivity,
  renderJudging,
  renderOverByFinish,
  type CloseReason,
} from '../present/render.js';
import { withCard } from '../present/card.js';
import { autoDoneNotice } from '../present/auto-done.js';
import { closePosts } from './close-posts.js';
import { drivenSeats, pendingSeats } from '../match/replay.js';
import { openDecisions } from '../match/idle.js';
import { answerMessage, answerOffer } from './answers.js';
import { narrate } from '../present/narrate.js';
import { seatLabel } from '../present/common.js';
import { playerText } from '../chat/player-text.js';
import { fail, ok } from '../match/results.js';
import { KeyedTimers, type Clock } from '../match/timers.js';
import { Reminders, type ReminderOptions } from './reminders.js';
import type { HostedMatch } from '../match/types.js';

/** What the {@link RoundRunner} needs from its `RoundHost`; times in ms of `clock` time. */
export interface RoundRunnerDeps {
  log: MatchLog;
  store: EventStore;
  publish: (channelId: string, reply: Reply) => Promise<void>;
  judge: AsyncJudge | undefined;
  judgeTimeoutMs: number;
  agentFor: AgentFactory | undefined;
  agentTimeoutMs: number;
  /** How long a process that lost a close claim waits before closing the round itself. */
  claimGraceMs: number;
  /** RoundHostOptions.agentExtraTurns. */
  agentExtraTurns: number;
  /** RoundHostOptions.autoDone. */
  autoDone: boolean;
  /** RoundHostOptions.onMatchOver. */
  onMatchOver?: ((m: HostedMatch) => Promise<Reply | null>) | undefined;
  clock: Clock;
  logger: Logger;
  /** Ballots on closed rounds' pitches. */
  ballots: BallotKeeper;
  /** RoundHostOptions.reminders (off when absent). */
  reminders?: ReminderOptions | undefined;
}

/** What a judged state is compared by when the decision is recorded (the close must close the state that was judged). */
const stateKey = (m: HostedMatch): string => JSON.stringify(m.state);

/** A round with nobody to wait for closes at once: driven seats all done/finished, or none and no timer. */
export const roundNeedsNoOne = (m: HostedMatch) =>
  m.phase === 'running' && pendingSeats(m).length === 0 && (drivenSeats(m).length > 0 || m.settings.roundSeconds === 0);

/** Opens and closes rounds exactly once per round across processes (see the file comment). */
export class RoundRunner {
  private readonly timers: KeyedTimers;
  private readonly background = new Set<Promise<unknown>>();
  private readonly rounds = new Map<string, AbortController>();
  private stopped = false;
  private readonly agents: AgentSeats;

  /** Pings for people a round waits for (reminders.ts). */
  readonly reminders: Reminders;

  constructor(private readonly d: RoundRunnerDeps) {
    this.timers = new KeyedTimers(d.clock);
    this.agents = new AgentSeats({
      ...d,
      track: (p) => this.track(p),
      publish: (channelId, reply) => this.publish(channelId, reply),
      controller: (key) => {
        const c = this.rounds.get(key) ?? new AbortController();
        this.rounds.set(key, c);
        return c;
      },
      afterAction: (m) => this.afterAction(m),
      closeIfNoOne: (m) => this.closeIfNoOne(m),
    });
    this.reminders = new Reminders({
      store: d.store,
      clock: d.clock,
      timers: this.timers,
      logger: d.logger,
      current: (id) => d.log.mutex.run(id, async () => (await d.log.refresh(id)) ?? null),
      publish: (channelId, reply) => this.publish(channelId, reply),
      track: (p) => this.track(p),
      options: d.reminders ?? { enabled: false, lastCallSeconds: 60 },
    });
  }

  /** Run `p` in the background; errors are logged, {@link idle} waits for it. */
  track(p: Promise<unknown>): void {
    const q = p.catch((e: unknown) => this.d.logger.error({ err: e }, 'round host background task failed'));
    this.background.add(q);
    void q.finally(() => this.background.delete(q));
  }

  /** Resolves once no background work (timer closes, agent turns, posts) is running. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
  }

  /** Clear timers, abort agent turns and wait for running work. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timers.clearAll();
    this.d.ballots.stop();
    for (const c of this.rounds.values()) c.abort(new Error('host stopped'));
    this.rounds.clear();
    await this.idle();
  }

  /** Post a reply that answers no command; empty replies are skipped and failures logged, never thrown. */
  async publish(channelId: string, reply: Reply | null): Promise<void> {
    if (!reply || (reply.public.length === 0 && reply.private.length === 0)) return;
    try {
      await this.d.publish(channelId, reply);
    } catch (e) {
      this.d.logger.error({ err: e, channelId }, 'publish failed');
    }
  }

  /** Arm the round timer of a running match if not armed yet (e.g. a round another process opened). */
  ensureTimer(m: HostedMatch): void {
    if (this.stopped) return;
    this.d.ballots.arm(m);
    if (m.phase !== 'running' || !m.state) return this.timers.clearPrefix(`${m.id}:`);
    this.reminders.arm(m);
    const round = m.state.round;
    if (m.judging) {
      // The close is under way: no round timer. If its claimant dies before recording it, close it here.
      const { reason, since } = m.judging;
      this.timers.clear(`${m.id}:round`);
      return this.timers.arm(
        `${m.id}:fallback:${round}`,
        since + this.d.claimGraceMs,
        () => this.track(this.closeNow(m.id, reason, round, true)),
        'judging',
      );
    }
    if (m.roundDeadline === null) return this.timers.clear(`${m.id}:round`);
    this.timers.arm(
      `${m.id}:round`,
      m.roundDeadline,
      () => this.track(this.closeNow(m.id, 'timer', round)),
      String(round),
    );
  }

  /** A match ended: drop its timers and abort its agents. */
  matchOver(id: string): void {
    this.timers.clearPrefix(`${id}:`);
    this.agents.forget(id);
    for (const [key, c] of [...this.rounds]) {
      if (!key.startsWith(`${id}:`)) continue;
      c.abort(new Error('match over'));
      this.rounds.delete(key);
    }
  }

  /**
   * Under the match lock, right after a round opened (start, round close, restore): arm its timer, ask the
   * agent seats (in parallel, in the background), and close it at once when it needs no one.
   * Returns the posts made meanwhile (seats without an agent, immediate closes).
   */
  async opened(m: HostedMatch): Promise<Reply | null> {
    if (this.stopped || m.phase !== 'running' || !m.state) return null;
    this.ensureTimer(m);
    const round = m.state.round;
    let cur = m;
    const posts: Reply = { public: [], private: [] };
    for (const lab of pendingSeats(m)) {
      const driver = m.drivers[lab];
      if (driver?.kind !== 'llm') continue;
      const agent = this.d.agentFor?.(driver) ?? null;
      if (agent) {
        this.agents.start(m, lab, agent);
        continue;
      }
      const r = await this.d.log.append(m.id, (x) =>
        takesInput(x, round) ? ok({ type: 'seat_done' as const, lab }) : fail('not_running', 'closed'),
      );
      if (!r.ok) return posts;
      cur = r.value.match;
      posts.public.push(
        renderAgentActivity(cur, lab, { ok: false, reason: `no agent available for ${playerText(driver.model)}` }),
      );
    }
    const idle = await this.autoDone(cur);
    return mergeReplies(posts, idle.posts, await this.closeIfNoOne(idle.match));
  }

  /**
   * Under the lock: mark done every person whose seat has nothing left to decide this round
   * (src/match/idle.ts), unless they turned it off (`done auto:off`) or took a done back this round, and
   * tell them what was decided and how to take it back (src/present/auto-done.ts).
   */
  async autoDone(m: HostedMatch): Promise<{ match: HostedMatch; posts: Reply }> {
    const posts: Reply = { public: [], private: [] };
    let cur = m;
    if (!this.d.autoDone || !cur.state || cur.phase !== 'running' || cur.judging) return { match: cur, posts };
    const round = cur.state.round;
    const marked: LabId[] = [];
    for (const lab of cur.state.labIds) {
      const d = cur.drivers[lab];
      const state = cur.state;
      if (!state || d?.kind !== 'human' || cur.done.includes(lab) || state.labs[lab]?.finished) continue;
      if (cur.autoDoneOff?.includes(lab) || cur.undone?.includes(lab)) continue;
      if (openDecisions(state, lab).length > 0) continue;
      const r = await this.d.log.append(cur.id, (x) =>
        takesInput(x, round) && !x.done.includes(lab)
          ? ok({ type: 'seat_done' as const, lab, auto: true as const })
          : fail('not_running', 'closed'),
      );
      if (!r.ok) break;
      cur = r.value.match;
      marked.push(lab);
    }
    // Told after every mark: whether the round closes at once depends on all of them.
    const closesNow = marked.length > 0 && roundNeedsNoOne(cur);
    for (const lab of marked) posts.private.push(autoDoneNotice(cur, lab, round, closesNow));
    return { match: cur, posts };
  }

  /** Under the lock: close the current round when every driven seat is done (see {@link roundNeedsNoOne}). */
  async closeIfNoOne(m: HostedMatch): Promise<Reply | null> {
    if (!m.state || m.judging || !roundNeedsNoOne(m)) return null;
    return this.closeLocked(m.id, 'all_done', m.state.round);
  }

  /**
   * Under the lock, after `lab`'s successful action: a scripted seat it addressed (an offer, a counter, a
   * direct message) answers at once, in words (src/host/answers.ts). Returns the match after the answer
   * and its posts (public narration; the answer's direct message privately to a person).
   */
  async answer(
    m: HostedMatch,
    lab: LabId,
    action: unknown,
    created: { offerId?: string } | undefined,
  ): Promise<{ match: HostedMatch; posts: Reply }> {
    const posts: Reply = { public: [], private: [] };
    const s = m.state;
    if (!s || m.phase !== 'running') return { match: m, posts };
    const a = (typeof action === 'object' && action !== null ? action : {}) as Record<string, unknown>;
    const offer = created?.offerId ? s.offers[created.offerId] : undefined;
    const to =
      offer?.to ??
      (a['action_type'] === 'send_message' && typeof a['target_lab_id'] === 'string' ? a['target_lab_id'] : null);
    const driver = to ? m.drivers[to] : undefined;
    if (to && driver?.kind === 'llm' && !s.labs[to]?.finished) {
      this.agents.extraTurn(m, to, driver);
      return { match: m, posts };
    }
    if (!to || driver?.kind !== 'scripted' || s.labs[to]?.finished) return { match: m, posts };
    const ans = offer ? answerOffer(s, to, driver.policy, offer.id) : answerMessage(to, lab);
    if (!ans) return { match: m, posts };
    const round = s.round;
    let cur = m;
    for (const act of ans.actions) {
      const r = await this.d.log.append(m.id, (x) =>
        takesInput(x, round) && !x.state.labs[to]?.finished
          ? ok({ type: 'action' as const, lab: to, userId: `scripted:${to}`, action: act })
          : fail('not_running', 'closed'),
      );
      if (!r.ok) break;
      cur = r.value.match;
    }
    const records = (cur.roundActions ?? []).filter((x) => x.lab === to && x.seq > m.lastSeq);
    const lines = narrate(cur, records).flatMap((x) => x.lines);
    if (lines.length)
      posts.public.push({ text: `${seatLabel(cur, to)} answers:\n${lines.map((l) => `• ${l}`).join('\n')}` });
    posts.private.push(...agentMessages(cur, records));
    return { match: cur, posts };
  }

  /** Under the lock, after an action: the match may be over (every seat finished) or the seat finished. */
  async afterAction(m: HostedMatch): Promise<Reply | null> {
    if (m.phase === 'over') {
      await this.d.store.setMatchStatus(m.id, 'over');
      this.matchOver(m.id);
      return withCard(
        mergeReplies(renderOverByFinish(m), await this.overHook(m), await this.d.ballots.afterMatchEnd(m)),
        m,
      );
    }
    const idle = await this.autoDone(m);
    return mergeReplies(idle.posts, await this.closeIfNoOne(idle.match));
  }

  /** Acquire the lock and close `round` (default: the current one) if still open; publishes the posts. */
  async closeNow(id: string, reason: CloseReason, round?: number, force = false): Promise<Reply | null> {
    let channelId = '';
    const reply = await this.d.log.mutex.run(id, async () => {
      const m = await this.d.log.refresh(id);
      if (!m?.state) return null;
      channelId = m.channelId;
      // A stale timer (another process opened a newer round meanwhile) re-arms for the current round.
      this.ensureTimer(m);
      return this.closeLocked(id, reason, round ?? m.state.round, force);
    });
    await this.publish(channelId, reply);
    return reply;
  }

  /**
   * Under the lock: close `round` exactly once (claim; judge; append `round_closed`), then open the next
   * round or finish the match. When the judge asks a model, the round is marked `round_judging`, judged
   * off the lock in the background (its posts are published) and the reply says the round is being judged.
   * Returns the posts, or null when the round is not open or another closer won.
   */
  async closeLocked(id: string, reason: CloseReason, round: number, force = false): Promise<Reply | null> {
    const m = await this.d.log.refresh(id);
    if (!isOpen(m, round)) return null;
    if (!force && !(await this.d.store.tryClaim(`round_close:${id}:${round}`))) {
      this.armFallback(id, reason, round);
      return null;
    }
    this.timers.clear(`${id}:fallback:${round}`);
    // Seat turns still running can no longer change this round: stop them (and their spending) before judging.
    this.abortRound(`${id}:${round}`, 'round closed');
    const judge = this.d.judge;
    const pre = decisionWithoutModel(m.state, judge);
    if (pre) {
      // No model call: decided and recorded in one step; re-decided (never by a model) if another writer moved the state.
      return this.record(
        id,
        reason,
        round,
        (x) =>
          (x.state === m.state
            ? pre
            : (decisionWithoutModel(x.state, judge) ?? decisionWithoutModel(x.state, undefined)!)
          ).decision,
      );
    }
    const marked = await this.d.log.append(id, (x) =>
      !isOpen(x, round)
        ? fail('not_running', 'round already closed')
        : ok(x.judging ? null : { type: 'round_judging' as const, round, reason }),
    );
    if (!marked.ok) {
      if (marked.error.code === 'busy') this.armFallback(id, reason, round);
      return null;
    }
    const judged = marked.value.match;
    if (!isOpen(judged, round)) return null;
    this.ensureTimer(judged);
    // (decisionWithoutModel is null only with a judge.)
    this.track(this.judgeThenClose(judged, reason, round, judge!));
    return { public: [renderJudging(judged, reason, this.d.judgeTimeoutMs)], private: [] };
  }

  /** Off the lock: ask the judge about `judged`, then record the close under the lock and publish its posts. */
  private async judgeThenClose(
    judged: HostedMatch & { state: NonNullable<HostedMatch['state']> },
    reason: CloseReason,
    round: number,
    judge: AsyncJudge,
  ): Promise<void> {
    const id = judged.id;
    const key = `${id}:${round}:judge`;
    const ctrl = new AbortController();
    this.rounds.set(key, ctrl);
    let decision: JudgeDecision | null;
    try {
      // The judge sees a state, not a match: its LLM calls count against this match and channel.
      decision = await withLlmMatch(id, () =>
        decideRound(judged.state, judge, {
          clock: this.d.clock,
          timeoutMs: this.d.judgeTimeoutMs,
          signal: ctrl.signal,
        }),
      );
    } finally {
      this.rounds.delete(key);
    }
    // Stopped or ended meanwhile: record nothing (after a restart the judging round is closed by the fallback).
    if (ctrl.signal.aborted) return;
    const same = stateKey(judged);
    const reply = await this.d.log.mutex.run(id, () =>
      this.record(id, reason, round, (x) => (stateKey(x) === same ? decision : changedWhileJudged(x.state))),
    );
    await this.publish(judged.channelId, reply);
  }

  /**
   * Under the lock: append `round_closed` with `decide`'s decision on the match as it is then (re-planned on
   * a conflict), then the posts; opens the next round or finishes the match.
   */
  private async record(
    id: string,
    reason: CloseReason,
    round: number,
    decide: (x: HostedMatch & { state: NonNullable<HostedMatch['state']> }) => JudgeDecision | null,
  ): Promise<Reply | null> {
    // The ballot holds the pitches the judge judged (after the scripted seats' close-of-round turn).
    const built: { ballot: BuiltBallot | null; decision: JudgeDecision | null } = { ballot: null, decision: null };
    // We hold the claim now: if appending fails (store error), retry later with force, or nobody would
    // ever close this round in this process.
    const appended = this.d.log.append(id, (x) => {
      if (!isOpen(x, round)) return fail('not_running', 'round already closed');
      built.decision = decide(x);
      built.ballot = ballotToOpen(x, () => stateForJudge(x.state));
      return ok({ type: 'round_closed' as const, round, reason, judge: built.decision });
    });
    const res = await appended.catch((err: unknown) => {
      this.armFallback(id, reason, round);
      throw err;
    });
    if (!res.ok) {
      if (res.error.code === 'busy') this.armFallback(id, reason, round);
      return null;
    }
    this.timers.clear(`${id}:fallback:${round}`);
    this.abortRound(`${id}:${round}`, 'round closed');
    const report = res.value.step?.report;
    if (!report) return null;
    const { reply, after } = await closePosts(this.d.ballots, res.value.match, report, reason, built);
    if (after.phase === 'over') {
      await this.d.store.setMatchStatus(id, 'over');
      this.matchOver(id);
      return withCard(mergeReplies(reply, await this.overHook(after)), this.d.log.cached(id));
    }
    // A thread match's card in its parent channel shows the round just closed (src/present/card.ts).
    return withCard(mergeReplies(reply, await this.opened(after)), this.d.log.cached(id));
  }

  /** Abort the agent turns (or judge) registered under `key`. */
  private abortRound(key: string, why: string): void {
    this.rounds.get(key)?.abort(new Error(why));
    this.rounds.delete(key);
  }

  /** Under the lock, on restore: close an overdue round now, else re-open it (timer, agents). */
  async resume(m: HostedMatch): Promise<Reply | null> {
    if (m.phase !== 'running' || !m.state) return null;
    // Its close was under way when a process stopped: the claim is held, so the fallback closes it.
    if (m.judging) return this.closeLocked(m.id, m.judging.reason, m.state.round);
    if (m.roundDeadline !== null && m.roundDeadline <= this.d.clock.now())
      return this.closeLocked(m.id, 'timer', m.state.round);
    return this.opened(m);
  }

  /** The onMatchOver hook's reply; its failure is logged and never holds back the final post. */
  private async overHook(m: HostedMatch): Promise<Reply | null> {
    try {
      return (await this.d.onMatchOver?.(m)) ?? null;
    } catch (err) {
      this.d.logger.error({ err, matchId: m.id }, 'onMatchOver hook failed');
      return null;
    }
  }

  private armFallback(id: string, reason: CloseReason, round: number): void {
    if (this.stopped) return;
    const at = this.d.clock.now() + this.d.claimGraceMs;
    this.timers.arm(`${id}:fallback:${round}`, at, () => this.track(this.closeNow(id, reason, round, true)));
  }
}
