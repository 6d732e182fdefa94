/**
 * The race scenarios of test/host/race-postgres.test.ts and the invariants each must keep, checked on the
 * log as the database holds it (read and replayed by the test process itself, not by either bot):
 * - action vs action on one offer (accept twice, withdraw vs accept, reject vs accept): exactly one of
 *   them is logged; the other gets a clear private error; nothing else is logged and nobody is penalised;
 * - round close (timer, or the last `done`) vs an action: the action lands in the round it was written
 *   for, or is refused with `round_closed`; each round is closed exactly once.
 */
import assert from 'node:assert/strict';
import type { Caller } from '../../src/commands/types.js';
import { applyAction } from '../../src/engine/index.js';
import { applyEvent, type HostedMatch, type StoredEvent } from '../../src/host/index.js';
import type { LedgerEntry } from '../../src/match/ledger.js';
import type { EventStore } from '../../src/store/types.js';
import { race, type Done, type Gate, type Proc } from './race-postgres-procs.js';

export const alice: Caller = { userId: 'pg:alice', displayName: 'Alice', isAdmin: false };
export const bob: Caller = { userId: 'pg:bob', displayName: 'Bob', isAdmin: false };
/** Alice always holds lab_0, Bob lab_1; the other seats are scripted. */
const LAB = { alice: 'lab_0', bob: 'lab_1' } as const;

/** One logged event with the round open when it was applied and, for actions, the engine's result. */
interface Folded {
  ev: StoredEvent;
  round: number;
  ok?: boolean;
  code?: string;
  offerId?: string;
}

/** A match's log as the test reads it from the database, folded incrementally. */
export class MatchTrail {
  readonly events: Folded[] = [];
  match: HostedMatch | null = null;

  constructor(
    private readonly store: EventStore,
    readonly id: string,
    readonly channel: string,
  ) {}

  async sync(): Promise<HostedMatch> {
    for (const ev of await this.store.load(this.id, this.match?.lastSeq ?? 0)) {
      const round = this.match?.state?.round ?? -1;
      const step = applyEvent(this.match, ev);
      this.match = step.match;
      const r = step.result;
      this.events.push({
        ev,
        round,
        ...(r ? { ok: r.ok, code: r.code, ...(r.created?.offerId ? { offerId: r.created.offerId } : {}) } : {}),
      });
    }
    assert.ok(this.match, 'the match has a log');
    return this.match;
  }

  since(seq: number): Folded[] {
    return this.events.filter((e) => e.ev.seq > seq);
  }

  /** The whole log's invariants: no refused action, rounds closed once each and in order, nobody penalised. */
  audit(): void {
    const m = this.match;
    assert.ok(m);
    assert.deepEqual(
      this.events.map((e) => e.ev.seq),
      this.events.map((_, i) => i + 1),
      'seq 1, 2, 3, … without gaps',
    );
    for (const e of this.events)
      if (e.ok !== undefined) assert.ok(e.ok, `a refused action reached the log: seq ${e.ev.seq} ${e.code}`);
    const closes = this.events.flatMap((e) => (e.ev.body.type === 'round_closed' ? [e.ev.body.round] : []));
    assert.deepEqual(
      closes,
      closes.map((_, i) => i),
      `each round closed exactly once, in order: ${closes.join(',')}`,
    );
    const entries: LedgerEntry[] = m.ledger?.entries ?? [];
    for (const lab of [LAB.alice, LAB.bob]) {
      assert.equal(m.state?.seats[lab]?.invalidActions, 0, `${lab} has no invalid action`);
      assert.ok(
        !entries.some((x) => x.lab === lab && x.source.kind === 'refused'),
        `${lab}: no refused entry in the ledger`,
      );
      const penalty = entries.find(
        (x) => x.lab === lab && (x.column === 'invalid_action_penalty' || x.column === 'spam_penalty'),
      );
      assert.equal(penalty, undefined, `${lab}: no penalty entry in the ledger`);
    }
  }
}

/** Counts of what happened, for the report (which side won, how often a race really conflicted). */
export interface Tally {
  steps: number;
  conflicted: number;
  outcomes: Record<string, number>;
}

export const newTally = (): Tally => ({ steps: 0, conflicted: 0, outcomes: {} });

/** Which process runs what: `p` is the first command's, `q` the second's. */
export interface Placement {
  p: Proc;
  q: Proc;
  gate: Gate;
  delayP?: number;
  delayQ?: number;
}

/** Runs matches for the scenarios on two processes (A sets matches up) and checks each step. */
export class Arena {
  readonly trails: MatchTrail[] = [];
  private k = 0;
  private offers = 0;
  private trail: MatchTrail | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly A: Proc,
    private readonly B: Proc,
    private readonly prefix: string,
    readonly tally: Tally = newTally(),
  ) {}

  private async ok(p: Proc, user: Caller, text: string): Promise<Done> {
    const d = await p.run({ t: 'run', channel: this.trail?.channel ?? '', user, text });
    assert.equal(d.error, undefined, `${user.displayName}: ${text} → ${JSON.stringify(d.error)}`);
    return d;
  }

  /** A new running market_round match, no round timer: Alice (lab_0) via A, Bob (lab_1) via B. */
  private async fresh(): Promise<MatchTrail> {
    const channel = `${this.prefix}_${this.trails.length}`;
    this.trail = new MatchTrail(this.store, '', channel);
    await this.ok(this.A, alice, `new task:market_round seed:${7 + this.trails.length} round_seconds:0`);
    await this.ok(this.A, alice, 'join lab:lab_0');
    await this.ok(this.B, bob, 'join lab:lab_1');
    await this.ok(this.A, alice, 'start');
    const rec = await this.store.activeMatchInChannel(channel);
    assert.ok(rec);
    this.trail = new MatchTrail(this.store, rec.id, channel);
    this.trails.push(this.trail);
    await this.trail.sync();
    return this.trail;
  }

  /**
   * The current match with room for a step: a round where neither person is near the per-round action
   * limit, (`notLast`) not the last round (a close there would end the match, not refuse the action),
   * and (`noneDone`) where no seat has said `done` yet.
   */
  async room(notLast: boolean, noneDone = false): Promise<{ t: MatchTrail; m: HostedMatch }> {
    for (;;) {
      const t = this.trail && this.trail.match?.phase === 'running' ? this.trail : await this.fresh();
      const m = await t.sync();
      const s = m.state;
      if (m.phase !== 'running' || !s) {
        this.trail = null;
        continue;
      }
      const last = s.round >= s.params.maxRounds - 1;
      if (notLast && last) {
        this.trail = null;
        continue;
      }
      const busy = s.seats[LAB.alice]!.actionsThisRound >= 8 || s.seats[LAB.bob]!.actionsThisRound >= 8;
      if (!busy && !(noneDone && m.done.length > 0)) return { t, m };
      const d = await this.A.run({ t: 'close', channel: t.channel, round: s.round });
      assert.ok(d.closed, 'the round closed to make room');
    }
  }

  /** Alice offers Bob credits (the pay alternates so three offers in a row never look like spam); returns the offer id. */
  private async offer(t: MatchTrail, via: Proc): Promise<string> {
    const n = ++this.offers;
    await this.ok(via, alice, `offer to:lab_1 pay:${1 + (n % 2)} msg:"offer ${n}"`);
    await t.sync();
    const made = t.events.at(-1);
    assert.ok(made?.offerId, 'the offer was logged');
    return made.offerId;
  }

  /**
   * Two closers of one round, one per process: both round timers (`timer_timer`), Alice's and Bob's last
   * `done` (`done_done`), or the timer vs Bob's `done` (`timer_done`; Alice is not done, so only the timer
   * closes). The round is closed exactly once; a `done` is recorded in its round or refused with
   * `round_closed` (it never ends the next round early).
   */
  async closeTwice(variant: 'timer_timer' | 'done_done' | 'timer_done', at: Placement): Promise<void> {
    const { t, m } = await this.room(true, true);
    const r = m.state!.round;
    const before = await t.sync();
    const timer = { t: 'close', channel: t.channel, round: r } as const;
    const done = (user: Caller) => ({ t: 'run', channel: t.channel, user, text: 'done' }) as const;
    const [a, b] =
      variant === 'timer_timer'
        ? [timer, timer]
        : variant === 'done_done'
          ? [done(alice), done(bob)]
          : [timer, done(bob)];
    const [dp, dq] = await race(at.p, a, at.q, b, { gate: at.gate, delayA: at.delayP, delayB: at.delayQ });
    await t.sync();
    const what = `${variant} (${at.gate}) in round ${r}: ${JSON.stringify([dp, dq])}`;
    const closes = t.events.filter((e) => e.ev.body.type === 'round_closed' && e.ev.body.round === r);
    assert.equal(closes.length, 1, `round ${r} closed exactly once: ${what}`);
    const added = t.since(before.lastSeq);
    assert.ok(
      added.every((e) => e.ev.body.type === 'round_closed' || e.ev.body.type === 'seat_done'),
      `only dones and the close: ${what}`,
    );
    let outcome = 'closed once';
    if (variant === 'timer_timer') {
      // The close claim in the store lets one timer close; the other finds the round claimed or closed.
      assert.equal([dp, dq].filter((d) => d.closed).length, 1, `one timer closed the round: ${what}`);
    } else if (variant === 'done_done') {
      assert.ok(!dp.error && !dq.error, `both dones went through: ${what}`);
      assert.equal(
        added.filter((e) => e.ev.body.type === 'seat_done' && e.round === r).length,
        2,
        `both dones in round ${r}: ${what}`,
      );
    } else {
      assert.equal(dp.closed, true, `the timer closed the round: ${what}`);
      const bobDone = added.filter((e) => e.ev.body.type === 'seat_done');
      if (dq.error) {
        assert.equal(dq.error.code, 'round_closed', `a late done is refused with round_closed: ${what}`);
        assert.deepEqual(dq.privateTo, [bob.userId]);
        assert.equal(bobDone.length, 0, `a refused done is not logged: ${what}`);
        outcome = 'late done refused round_closed';
      } else {
        assert.equal(bobDone.length, 1, what);
        assert.equal(bobDone[0]!.round, dq.writtenFor, `the done counted in the round it was written for: ${what}`);
        outcome = bobDone[0]!.round === r ? 'done landed in its round' : 'done read the next round, landed there';
      }
    }
    // Two timers race on the store's close claim before any append: no append conflict is needed there.
    this.count(`${variant}: ${outcome}`, [dp, dq], variant === 'timer_timer' ? 'none' : at.gate);
  }

  private count(outcome: string, done: Done[], gate: Gate): void {
    this.tally.steps++;
    this.tally.outcomes[outcome] = (this.tally.outcomes[outcome] ?? 0) + 1;
    const conflicts = done.reduce((n, d) => n + d.conflicts, 0);
    if (conflicts > 0) this.tally.conflicted++;
    // Held at the barrier, both planned against the same log: one of the appends must have conflicted.
    if (gate !== 'none') assert.ok(conflicts > 0, `a gated race (${gate}) conflicted`);
  }

  /**
   * Two commands on one offer of Alice's to Bob, one per process: `accept` twice (Bob), `withdraw`
   * (Alice) vs accept, or `reject` (Bob) vs accept. Exactly one is logged, the other is refused privately
   * with `inactive_offer`; the loser's seat is exactly as the winner's action alone leaves it.
   */
  async offerRace(kind: 'accept_twice' | 'withdraw_vs_accept' | 'reject_vs_accept', at: Placement): Promise<string> {
    const { t } = await this.room(false);
    const offer = await this.offer(t, this.offers % 2 ? this.A : this.B);
    const before = await t.sync();
    const first =
      kind === 'accept_twice'
        ? { user: bob, text: `accept offer:${offer}` }
        : kind === 'withdraw_vs_accept'
          ? { user: alice, text: `reject offer:${offer}` }
          : { user: bob, text: `reject offer:${offer}` };
    const second = { user: bob, text: `accept offer:${offer}` };
    const [dp, dq] = await race(
      at.p,
      { t: 'run', channel: t.channel, ...first },
      at.q,
      { t: 'run', channel: t.channel, ...second },
      { gate: at.gate, delayA: at.delayP, delayB: at.delayQ },
    );
    const after = await t.sync();
    const added = t.since(before.lastSeq);
    const what = `${kind} (${at.gate}) on ${offer}: ${JSON.stringify([dp, dq])}`;
    assert.equal(added.length, 1, `exactly one event: ${what}`);
    const [won] = added;
    assert.ok(won && won.ev.body.type === 'action' && won.ok, `the winner's action is logged and valid: ${what}`);
    const action = won.ev.body.action as { action_type: string; offer_id: string };
    assert.equal(action.offer_id, offer);
    const results = [
      { d: dp, user: first.user, type: first.text.split(' ')[0] === 'accept' ? 'accept_offer' : 'reject_offer' },
      { d: dq, user: second.user, type: 'accept_offer' },
    ];
    const losers = results.filter((r) => r.d.error);
    assert.equal(losers.length, 1, `exactly one command refused: ${what}`);
    const loser = losers[0]!;
    const winner = results.find((r) => r !== loser)!;
    assert.equal(action.action_type, winner.type, `the logged action is the winner's: ${what}`);
    assert.equal(won.ev.body.lab, winner.user === alice ? LAB.alice : LAB.bob);
    // Whether it lost at the host (a real collision) or, started after the winner finished, at the
    // catalogue's own check, the loser is told what became of the offer.
    assert.equal(loser.d.error?.code, 'inactive_offer', `the loser is told the offer is gone: ${what}`);
    assert.match(loser.d.error?.message ?? '', new RegExp(offer), 'the error names the offer');
    assert.deepEqual(loser.d.privateTo, [loser.user.userId], 'the error is private to the loser');
    assert.equal(loser.d.publicPosts, 0, 'nothing public for the loser');
    // The loser's seat (reward, ledger, invalid actions) is what the winner's action alone makes of it.
    const loserLab = loser.user === alice ? LAB.alice : LAB.bob;
    const alone = applyAction(before.state!, won.ev.body.lab, won.ev.body.action).state;
    assert.deepEqual(
      after.state!.seats[loserLab],
      alone.seats[loserLab],
      `the loser's reward is untouched by its lost press: ${what}`,
    );
    assert.equal(after.state!.seats[loserLab]!.invalidActions, before.state!.seats[loserLab]!.invalidActions);
    this.count(
      `${kind}: ${winner.type === 'accept_offer' ? 'accept' : kind === 'withdraw_vs_accept' ? 'withdraw' : 'reject'} won`,
      [dp, dq],
      at.gate,
    );
    return winner.type;
  }

  /**
   * A round close in one process (`timer`: what the round timer calls; `done`: Alice's `done` after Bob's)
   * vs an action of Bob's in the other (`message`, `pitch`, or `accept` of an offer made this round).
   * The action lands in the round it was written for (before that round's one close) or is refused with
   * `round_closed`, privately, and nothing of it is logged.
   */
  async closeRace(
    closer: 'timer' | 'done',
    act: 'message' | 'pitch' | 'accept',
    at: Placement,
  ): Promise<'landed' | 'refused'> {
    const { t, m } = await this.room(true);
    const r = m.state!.round;
    const offer = act === 'accept' ? await this.offer(t, this.A) : '';
    if (closer === 'done') await this.ok(this.B, bob, 'done');
    const before = await t.sync();
    const n = ++this.k;
    const text =
      act === 'message'
        ? `message text:"note ${n}, sent in round ${r + 1}"`
        : act === 'pitch'
          ? `pitch text:"Pitch ${n}: Lab B needs more GPU-hours this round"`
          : `accept offer:${offer}`;
    const close =
      closer === 'timer'
        ? ({ t: 'close', channel: t.channel, round: r } as const)
        : ({ t: 'run', channel: t.channel, user: alice, text: 'done' } as const);
    const [dc, da] = await race(
      at.p,
      close,
      at.q,
      { t: 'run', channel: t.channel, user: bob, text },
      { gate: at.gate, delayA: at.delayP, delayB: at.delayQ },
    );
    await t.sync();
    const what = `${closer} vs ${act} (${at.gate}) in round ${r}: ${JSON.stringify([dc, da])}`;
    if (closer === 'timer') assert.equal(dc.closed, true, `the timer closed the round: ${what}`);
    else assert.equal(dc.error, undefined, `Alice's done went through: ${what}`);
    const closes = t.events.filter((e) => e.ev.body.type === 'round_closed' && e.ev.body.round === r);
    assert.equal(closes.length, 1, `round ${r} closed exactly once: ${what}`);
    const bobs = t
      .since(before.lastSeq)
      .filter((e) => e.ev.body.type !== 'round_closed' && e.ev.body.type !== 'seat_done');
    assert.ok(
      bobs.every((e) => e.ev.body.type === 'action' && e.ev.body.lab === LAB.bob),
      `only Bob's action besides the close: ${what}`,
    );
    if (da.writtenFor !== undefined) assert.ok(da.writtenFor >= r, 'the command read this round or a later one');
    if (at.gate !== 'none') assert.equal(da.writtenFor, r, `held at the barrier, the command read round ${r}: ${what}`);
    if (bobs.length === 1) {
      const e = bobs[0]!;
      assert.equal(da.error, undefined, `a logged action was answered as done: ${what}`);
      assert.ok(e.ok, `Bob's logged action is valid: ${what}`);
      assert.equal(e.round, da.writtenFor, `the action landed in the round it was written for: ${what}`);
      if (e.round === r) assert.ok(e.ev.seq < closes[0]!.ev.seq, 'it precedes its round close');
      this.count(
        `${closer} vs ${act}: ${e.round === r ? 'landed in its round' : 'read the next round, landed there'}`,
        [dc, da],
        at.gate,
      );
      return 'landed';
    }
    assert.equal(bobs.length, 0, `at most one action of Bob's: ${what}`);
    assert.deepEqual(da.privateTo, [bob.userId], `the refusal is private: ${what}`);
    assert.equal(da.publicPosts, 0);
    if (da.writtenFor === r) {
      assert.equal(da.error?.code, 'round_closed', `a late action is refused with round_closed: ${what}`);
      assert.match(da.error?.message ?? '', /closed before your command arrived/);
      this.count(`${closer} vs ${act}: refused round_closed`, [dc, da], at.gate);
    } else {
      // Not held at the barrier, the command started after the close: it read the next round, where the
      // offer made last round had expired, and the catalogue refused it before it reached the host.
      assert.equal(at.gate, 'none', `a gated command read the round before the close: ${what}`);
      assert.equal(act, 'accept', `only the accept of an expired offer may fail: ${what}`);
      assert.equal(da.writtenFor, undefined, `refused by the catalogue, before the host: ${what}`);
      assert.equal(da.error?.code, 'inactive_offer', what);
      this.count(`${closer} vs ${act}: read the next round, offer expired`, [dc, da], at.gate);
    }
    return 'refused';
  }
}
