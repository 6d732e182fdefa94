/**
 * The agent seats of the round host (src/host/rounds.ts): asking an agent seat for its turn in the
 * background when a round opens (or for an extra turn when a person addresses an LLM seat), and recording
 * its actions and its `done` under the match lock. A turn is aborted when its round closes; an answer that
 * arrives after that is dropped.
 */
import type { Reply } from '../chat/types.js';
import { observe } from '../engine/index.js';
import type { LabId, MatchState } from '../engine/types.js';
import type { EventStore } from '../store/types.js';
import { validatorFor } from '../agents/dry-run.js';
import type { AgentFactory, SeatAgent } from '../agents/seat.js';
import { askAgent, claimAgentTurn, type AgentOutcome } from './agent-turn.js';
import type { MatchLog } from '../match/match-log.js';
import { agentMessages, mergeReplies, renderAgentActivity } from '../present/render.js';
import { fail, ok } from '../match/results.js';
import type { Clock } from '../match/timers.js';
import type { HostedMatch } from '../match/types.js';

/** `round` of `m` is not closed yet (it may be with the judge: see {@link takesInput}). */
export const isOpen = (m: HostedMatch | null, round: number): m is HostedMatch & { state: MatchState } =>
  m !== null && m.phase === 'running' && m.state !== null && m.state.round === round;

/** `round` of `m` is open and not with the judge: seats may still act and say done in it. */
export const takesInput = (m: HostedMatch | null, round: number): m is HostedMatch & { state: MatchState } =>
  isOpen(m, round) && !m.judging;

/** What {@link AgentSeats} needs from the round runner. */
export interface AgentSeatsDeps {
  log: MatchLog;
  store: EventStore;
  clock: Clock;
  agentFor: AgentFactory | undefined;
  agentTimeoutMs: number;
  /** Extra turns an LLM seat gets per round when addressed (RoundHostOptions.agentExtraTurns). */
  agentExtraTurns: number;
  /** Run in the background (the runner waits for it on idle/stop). */
  track(p: Promise<unknown>): void;
  publish(channelId: string, reply: Reply | null): Promise<void>;
  /** The abort controller of `<match>:<round>`'s agent turns (aborted when the round's close is claimed). */
  controller(key: string): AbortController;
  /** Under the lock, after an action (the match may be over). */
  afterAction(m: HostedMatch): Promise<Reply | null>;
  /** Under the lock: close the round when nobody is left to wait for. */
  closeIfNoOne(m: HostedMatch): Promise<Reply | null>;
}

/** Agent turns of every match of one round host. */
export class AgentSeats {
  /** Extra agent turns used, by `<match>:<round>:<lab>` (dropped with the match). */
  private readonly extraTurns = new Map<string, number>();

  constructor(private readonly d: AgentSeatsDeps) {}

  /** Forget a finished match's extra-turn counts. */
  forget(id: string): void {
    for (const key of [...this.extraTurns.keys()]) if (key.startsWith(`${id}:`)) this.extraTurns.delete(key);
  }

  /**
   * An LLM seat something was addressed to gets an extra turn this round (in the background), at most
   * `agentExtraTurns` per seat per round; its turns count against the match's token budget as any turn.
   */
  extraTurn(m: HostedMatch, lab: LabId, driver: Extract<HostedMatch['drivers'][string], { kind: 'llm' }>): void {
    const round = m.state?.round ?? 0;
    const key = `${m.id}:${round}:${lab}`;
    const used = this.extraTurns.get(key) ?? 0;
    const agent = this.d.agentFor?.(driver) ?? null;
    if (!agent || used >= this.d.agentExtraTurns) return;
    this.extraTurns.set(key, used + 1);
    this.start(m, lab, agent, true);
  }

  /** Ask `agent` for `lab`'s turn of the current round in the background (claimed once across processes unless `extra`). */
  start(m: HostedMatch, lab: LabId, agent: SeatAgent, extra = false): void {
    const state = m.state;
    if (!state) return;
    const round = state.round;
    const signal = this.d.controller(`${m.id}:${round}`).signal;
    const obs = observe(state, lab);
    this.d.track(
      (async () => {
        const stillPending = async () =>
          ((x) => takesInput(x, round) && !x.done.includes(lab))(await this.d.log.refresh(m.id));
        const claim = {
          tryClaim: (k: string) => this.d.store.tryClaim(k),
          stillPending,
          clock: this.d.clock,
          timeoutMs: this.d.agentTimeoutMs,
        };
        if (!extra && !(await claimAgentTurn(claim, `agent_turn:${m.id}:${round}:${lab}`, signal))) return;
        const outcome = await askAgent(
          agent,
          obs,
          { matchId: m.id, lab, round, validate: validatorFor(state, lab) },
          { clock: this.d.clock, timeoutMs: this.d.agentTimeoutMs, signal },
        );
        if (signal.aborted && !outcome.ok) return;
        const reply = await this.d.log.mutex.run(m.id, () => this.apply(m.id, lab, round, outcome, extra));
        await this.d.publish(m.channelId, reply);
      })(),
    );
  }

  /**
   * Under the lock: record an agent's actions and its `done` (or only `done` when it failed). An `extra`
   * turn (something was addressed to the seat after its turn) may act although the seat is done.
   */
  private async apply(
    id: string,
    lab: LabId,
    round: number,
    outcome: AgentOutcome,
    extra = false,
  ): Promise<Reply | null> {
    const m = await this.d.log.refresh(id);
    if (!takesInput(m, round) || (!extra && m.done.includes(lab)) || m.state.labs[lab]?.finished) return null;
    const driver = m.drivers[lab];
    const userId = driver?.kind === 'llm' ? `llm:${driver.model}` : `agent:${lab}`;
    let cur: HostedMatch = m;
    // This turn's steps, as the fold recorded them (for the public narration and direct messages).
    const turn = (x: HostedMatch) => (x.roundActions ?? []).filter((a) => a.lab === lab && a.seq > m.lastSeq);
    for (const action of outcome.ok ? outcome.actions : []) {
      const r = await this.d.log.append(id, (x) =>
        takesInput(x, round) && (extra || !x.done.includes(lab)) && !x.state.labs[lab]?.finished
          ? ok({
              type: 'action' as const,
              lab,
              userId,
              action,
              ...(outcome.ok && outcome.promptVersion !== undefined ? { promptVersion: outcome.promptVersion } : {}),
            })
          : fail('not_running', 'closed'),
      );
      if (!r.ok) break;
      cur = r.value.match;
      if (cur.phase === 'over')
        return mergeReplies(
          {
            public: [renderAgentActivity(cur, lab, { ok: true, records: turn(cur) })],
            private: agentMessages(cur, turn(cur)),
          },
          await this.d.afterAction(cur),
        );
    }
    const done = await this.d.log.append(id, (x) =>
      takesInput(x, round) ? ok({ type: 'seat_done' as const, lab }) : fail('not_running', 'closed'),
    );
    if (done.ok) cur = done.value.match;
    const records = turn(cur);
    const post = renderAgentActivity(cur, lab, outcome.ok ? { ok: true, records } : outcome);
    return mergeReplies({ public: [post], private: agentMessages(cur, records) }, await this.d.closeIfNoOne(cur));
  }
}
