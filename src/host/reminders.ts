/**
 * Reminder pings: a person whose round is waiting for them is mentioned, and only they are.
 *
 * - Timed rounds: when half the round is left, and again `lastCallSeconds` before its close (at most a
 *   quarter of the round), each person who has neither acted this round nor said `done` is mentioned, one
 *   post each (a post's `mentions`: Discord `allowed_mentions.users`, Slack `<@U…>`).
 * - Rounds without a timer: once per round, when the round is waiting only for one person.
 *
 * Off for a person (`me reminders:off`), a channel (`me channel_reminders:off`; a thread match reads its parent
 * channel's) or the deployment (config `chat.reminders`). Each ping is claimed in the store
 * (`remind:<match>:<round>:<half|last|only>`), so of several processes only one posts it. Nothing here is
 * a game rule: it reads who is done and who acted, and says so.
 */
import type { Logger } from 'pino';
import type { Post, Reply } from '../chat/types.js';
import { personName } from '../chat/player-text.js';
import type { EventStore } from '../store/types.js';
import { CHAT_SETTING } from '../store/chat-settings.js';
import { pendingSeats } from '../match/replay.js';
import { roundLabel } from '../present/common.js';
import type { Clock, KeyedTimers } from '../match/timers.js';
import type { HostedMatch, SeatDriver } from '../match/types.js';

/** Reminder settings of the deployment (config `chat.*`). */
export interface ReminderOptions {
  enabled: boolean;
  /** The second ping of a timed round goes this long before its close (at most a quarter of the round). */
  lastCallSeconds: number;
}

/** What the reminders need from the round host. */
export interface ReminderDeps {
  store: EventStore;
  clock: Clock;
  timers: KeyedTimers;
  logger: Logger;
  /** The match as its log says now (null when unknown). */
  current(matchId: string): Promise<HostedMatch | null>;
  publish(channelId: string, reply: Reply): Promise<void>;
  track(p: Promise<unknown>): void;
  options: ReminderOptions;
}

type Person = Extract<SeatDriver, { kind: 'human' }>;
type Which = 'half' | 'last' | 'only';

/** The pings of one round (see the file comment). */
export class Reminders {
  constructor(private readonly d: ReminderDeps) {}

  /** Arm (or clear) the two pings of `m`'s current timed round. */
  arm(m: HostedMatch): void {
    const key = (w: Which) => `${m.id}:remind-${w}`;
    if (
      !this.d.options.enabled ||
      m.phase !== 'running' ||
      !m.state ||
      m.roundDeadline === null ||
      m.settings.roundSeconds <= 0
    ) {
      this.d.timers.clear(key('half'));
      this.d.timers.clear(key('last'));
      return;
    }
    const roundMs = m.settings.roundSeconds * 1000;
    const round = m.state.round;
    const at: Record<'half' | 'last', number> = {
      half: m.roundDeadline - roundMs / 2,
      last: m.roundDeadline - Math.min(this.d.options.lastCallSeconds * 1000, roundMs / 4),
    };
    for (const w of ['half', 'last'] as const) {
      // A ping whose time has passed (a restore late in the round) is not sent late.
      if (at[w] <= this.d.clock.now()) continue;
      this.d.timers.arm(key(w), at[w], () => this.d.track(this.fire(m.id, round, w)), String(round));
    }
  }

  /** After a `done` in a round without a timer: the ping for the one person it now waits for, if any. */
  async afterDone(m: HostedMatch): Promise<Reply | null> {
    if (!this.d.options.enabled || m.phase !== 'running' || !m.state || m.settings.roundSeconds > 0) return null;
    const pending = pendingSeats(m);
    if (pending.length !== 1) return null;
    const driver = m.drivers[pending[0]!];
    if (driver?.kind !== 'human') return null;
    return this.reply(m, [driver], 'only');
  }

  private async fire(matchId: string, round: number, which: 'half' | 'last'): Promise<void> {
    const m = await this.d.current(matchId);
    if (!m || m.phase !== 'running' || !m.state || m.state.round !== round) return;
    const s = m.state;
    const waiting = Object.entries(m.drivers)
      .filter(
        ([lab, d]) =>
          d.kind === 'human' &&
          !m.done.includes(lab) &&
          !s.labs[lab]?.finished &&
          (s.seats[lab]?.actionsThisRound ?? 0) === 0,
      )
      .map(([, d]) => d as Person);
    const reply = await this.reply(m, waiting, which);
    if (reply) await this.d.publish(m.channelId, reply);
  }

  /** One post per person still to be pinged (opt-outs left out), claimed once across processes; null when none. */
  private async reply(m: HostedMatch, people: readonly Person[], which: Which): Promise<Reply | null> {
    if (people.length === 0 || (await this.off('channel', m.parentChannelId ?? m.channelId))) return null;
    const posts: Post[] = [];
    for (const p of people) {
      if (await this.off('person', p.userId)) continue;
      posts.push({ text: this.text(m, p, which), mentions: [p.userId] });
    }
    if (posts.length === 0 || !(await this.d.store.tryClaim(`remind:${m.id}:${m.state!.round}:${which}`))) return null;
    this.d.logger.info({ matchId: m.id, round: m.state!.round, which, people: posts.length }, 'reminders sent');
    return { public: posts, private: [] };
  }

  private async off(scope: 'person' | 'channel', subject: string): Promise<boolean> {
    return (await this.d.store.chatSetting(scope, subject, CHAT_SETTING.reminders)) === 'off';
  }

  private text(m: HostedMatch, p: Person, which: Which): string {
    const round = `Round ${roundLabel(m.state!.round, m.state!.params.maxRounds)}`;
    const left = Math.max(0, Math.round(((m.roundDeadline ?? 0) - this.d.clock.now()) / 1000));
    const off = 'Turn these off with `me reminders:off`.';
    if (which === 'only')
      return `⏰ ${personName(p.displayName)}: ${round} is waiting only for you (\`done\` when you are). ${off}`;
    return `⏰ ${personName(p.displayName)}: ${round} closes in ${left} s and you have not acted or said \`done\` yet. ${off}`;
  }
}
