/**
 * A match's public feed (pure): what the channel saw, event by event, as HTML items with the event's seq.
 * Round posts come from src/present (renderStart, renderRoundClose, renderFinalPost, renderEnded) and
 * ballot posts from src/voting/render.ts, exactly as the bots post them; each seat action becomes a public
 * line only when the channel sees it (offers and their answers, pitches, public messages, coalitions,
 * finishing). Private actions (reservations, allocations, direct messages, waits) and failed actions give
 * no item; private posts (briefings, reward breakdowns) are never rendered.
 *
 * Judge verdicts: while a round's ballot is open (or may still open: a votes-on match whose round had two
 * or more judged pitches and whose log has nothing after the close yet) the round-close item shows the
 * ballot notice instead of the scores, as the channel post does; the verdict is shown with the ballot's
 * close.
 */
import { playerBlock } from '../chat/player-text.js';
import type { Post } from '../chat/types.js';
import type { Offer } from '../engine/types.js';
import { applyEvent } from '../match/replay.js';
import type { HostedMatch, StoredEvent } from '../match/types.js';
import { labName, seatLabel } from '../present/common.js';
import { dealSide } from '../present/narrate.js';
import { renderEnded, renderRoundClose, renderStart, type BallotView } from '../present/render.js';
import type { VoteRecord } from '../store/types.js';
import { ballotOpenField, renderBallotClosed } from '../voting/render.js';
import { html, postHtml, type Html } from './html.js';
import { publicMatch, type Naming } from './people.js';

/** One public item: the event's seq, the round it belongs to (1-based; 0 = lobby) and its HTML. */
export interface FeedItem {
  seq: number;
  round: number;
  kind: string;
  html: Html;
}

/** What rendering needs besides the events: the page's naming of people and the votes of closed ballots. */
export interface FeedOptions {
  naming: Naming;
  /** Votes per ballot id (only read for ballots that closed). */
  votes: ReadonlyMap<string, readonly VoteRecord[]>;
}

/** An offer's public terms: who gives what to whom. */
export function offerTerms(m: HostedMatch, o: Offer): string {
  const s = m.state;
  return `${labName(m, o.from)} gives ${dealSide(s, o.offeredBlockIds, o.payment)} to ${labName(m, o.to)} for ${dealSide(s, o.requestedBlockIds, o.ask ?? 0)} (open until round ${o.expiresRound + 1})`;
}

const post = (title: string, text = ''): Post => ({ title, text });

/** The public post of a successful seat action, or null when the channel does not see it. */
function actionPost(
  before: HostedMatch,
  after: HostedMatch,
  body: Extract<StoredEvent['body'], { type: 'action' }>,
  created: { offerId?: string; coalitionId?: string } | undefined,
): Post | null {
  const s = after.state;
  if (!s) return null;
  const a = (body.action ?? {}) as Record<string, unknown>;
  const who = labName(after, body.lab);
  const str = (k: string) => (typeof a[k] === 'string' ? (a[k] as string).trim() : '');
  switch (a['action_type']) {
    case 'send_offer':
    case 'counter_offer': {
      const o = created?.offerId ? s.offers[created.offerId] : undefined;
      if (!o) return null;
      const countered = a['action_type'] === 'counter_offer' ? ` (countering ${str('offer_id')})` : '';
      return post(
        `${who} offers ${labName(after, o.to)} ${o.id}${countered}`,
        `${offerTerms(after, o)}${o.message ? `\n${playerBlock(o.message)}` : ''}`,
      );
    }
    case 'accept_offer': {
      const o = s.offers[str('offer_id')];
      return post(
        `${who} accepted ${str('offer_id')}`,
        o ? offerTerms(after, o).replace(/ \(open until round \d+\)$/, '') : '',
      );
    }
    case 'reject_offer': {
      const o = before.state?.offers[str('offer_id')];
      return post(`${who} ${o && o.from === body.lab ? 'withdrew' : 'rejected'} ${str('offer_id')}`);
    }
    case 'make_pitch':
      return post(`${who} pitched to the judge`, playerBlock(str('message')));
    case 'counter_pitch': {
      const target = str('target_lab_id');
      return post(
        `${who} answered ${s.labs[target] ? labName(after, target) : 'a'}'s pitch`,
        playerBlock(str('message')),
      );
    }
    case 'send_message':
      // A direct message is private to its two seats.
      return a['target_lab_id'] == null ? post(`${who} says`, playerBlock(str('message'))) : null;
    case 'form_coalition': {
      const c = created?.coalitionId ? s.coalitions[created.coalitionId] : undefined;
      if (!c) return null;
      const members = c.members.filter((l) => l !== c.proposer).map((l) => labName(after, l));
      return post(
        `${who} proposes coalition ${c.id} with ${members.join(', ')}`,
        `${c.purpose ? `${playerBlock(c.purpose)}\n` : ''}Open until round ${c.expiresRound + 1}; each member must commit.`,
      );
    }
    case 'commit_to_coalition': {
      const id = str('coalition_id');
      const c = s.coalitions[id];
      const ids = Array.isArray(a['block_ids'])
        ? (a['block_ids'] as unknown[]).filter((x): x is string => typeof x === 'string')
        : [];
      // Escrowed credits are private (only committed block ids are public facts of a coalition).
      return post(
        `${who} committed to coalition ${id}`,
        `${ids.length ? `Blocks ${ids.join(', ')}.` : 'No blocks.'}${c ? ` Status: ${c.status}.` : ''}`,
      );
    }
    case 'finish':
      return post(`${who} finished`, 'The seat settles now and acts no more.');
    default:
      return null;
  }
}

/** Whether the judge's scores of round `round` (0-based) must stay hidden, given the newest fold `latest`. */
export function verdictHidden(latest: HostedMatch, round: number, closeSeq: number, judged: number): boolean {
  const b = latest.ballots.find((x) => x.round === round);
  if (b) return b.closed === null;
  // No ballot yet: one may still open right after the close (votes on, two or more judged pitches).
  return latest.settings.votes === true && judged >= 2 && latest.lastSeq === closeSeq;
}

const HIDDEN_FIELD = { name: 'Pitches', value: "The judge's scores stay hidden while this round's ballot is open." };

/**
 * Fold `events` onto `from` (null = from the start) and return the public items of those with
 * seq > `afterSeq`. `latest` is the newest fold known (for hiding verdicts; default: the fold of `events`).
 * Throws ReplayError on a log that cannot be folded.
 */
export function feedOf(
  events: readonly StoredEvent[],
  from: HostedMatch | null,
  opts: FeedOptions,
  afterSeq = 0,
  latest?: HostedMatch,
): { match: HostedMatch | null; items: FeedItem[] } {
  const steps: { ev: StoredEvent; before: HostedMatch | null; step: ReturnType<typeof applyEvent> }[] = [];
  let m = from;
  for (const ev of events) {
    const step = applyEvent(m, ev);
    steps.push({ ev, before: m, step });
    m = step.match;
  }
  const newest = latest ?? m;
  const items: FeedItem[] = [];
  for (const { ev, before, step } of steps) {
    if (ev.seq <= afterSeq || !newest) continue;
    const pub = publicMatch(step.match, opts.naming);
    const prev = before ? publicMatch(before, opts.naming) : pub;
    const round = pub.state ? Math.min(pub.state.round + 1, pub.state.params.maxRounds) : 0;
    const add = (kind: string, posts: Post[], itemRound = round) => {
      if (posts.length)
        items.push({
          seq: ev.seq,
          round: itemRound,
          kind,
          html: html`<li class="item item-${kind}" data-seq="${ev.seq}" data-round="${itemRound}">${posts.map((p) => postHtml(p))}</li>`,
        });
    };
    const body = ev.body;
    switch (body.type) {
      case 'match_created':
        add('created', [
          post(
            `Match opened: ${body.settings.task}`,
            `${body.settings.roundSeconds > 0 ? `${body.settings.roundSeconds} s rounds` : 'No round timer'}${body.settings.votes ? ' · blind votes on pitches' : ''}. Seats are being taken.`,
          ),
        ]);
        break;
      case 'seat_claimed':
      case 'seat_assigned':
        add('seat', [post(`${seatLabel(pub, body.lab)} took a seat`)]);
        break;
      case 'match_started':
        add('start', renderStart(pub).public, 1);
        break;
      case 'action': {
        if (!step.result?.ok) break;
        const p = actionPost(prev, pub, body, step.result.created);
        if (p) add(`action`, [p]);
        break;
      }
      case 'seat_done':
        add('done', [post(`${labName(pub, body.lab)} is done for the round`)]);
        break;
      case 'seat_undone':
        add('done', [post(`${labName(pub, body.lab)} is not done after all`)]);
        break;
      case 'round_judging':
        add(
          'judging',
          [
            post(
              `Round ${body.round + 1} closed: the judge is deciding`,
              'The results follow as soon as the judge has decided.',
            ),
          ],
          body.round + 1,
        );
        break;
      case 'seat_setting':
        break;
      case 'round_closed': {
        const r = step.report;
        if (!r) break;
        const hide = verdictHidden(newest, body.round, ev.seq, r.judge?.scores.length ?? 0);
        const ballot = newest.ballots.find((x) => x.round === body.round);
        const view: BallotView | undefined = hide
          ? { pitchesField: ballot ? ballotOpenField(ballot) : HIDDEN_FIELD, buttons: [] }
          : undefined;
        add('close', renderRoundClose(pub, r, body.reason, view).public, body.round + 1);
        break;
      }
      case 'ballot_opened':
        add(
          'ballot',
          [
            post(
              `Ballot ${body.ballotId} is open: round ${body.round + 1} pitches`,
              `${body.pairs.length} pair${body.pairs.length === 1 ? '' : 's'} to compare blind; vote with \`vote\` in the channel or through your personal web link.`,
            ),
          ],
          body.round + 1,
        );
        break;
      case 'ballot_closed': {
        const b = pub.ballots.find((x) => x.id === body.ballotId);
        if (b) add('ballot', [renderBallotClosed(pub, b, opts.votes.get(b.id) ?? [])], b.round + 1);
        break;
      }
      case 'ballot_deadline':
        break;
      case 'match_ended':
        add(
          'ended',
          renderEnded(pub, body.by === step.match.hostUserId ? 'The host' : 'An admin', prev.phase === 'running')
            .public,
        );
        break;
    }
  }
  return { match: m, items };
}
