/**
 * Texts the scripted seats say: truthful pitches that name only their own job ids (the judge weighs the
 * true need from the state; docs/RULES.md §6), the
 * deceptive archetype's misleading claims, selfish price quotes, and retaliatory grudge notices. The
 * quote and grudge formats are also parsed back (`parseQuote`, `GRUDGE_MARK`), so keep them stable.
 *
 * Under rules v4 pitches speak in the first person and never name their own lab: people vote on them blind
 * (docs/PREFERENCE-DATA.md), and a pitch that says "Lab C needs…" tells the voter who wrote it. Under v3 a
 * pitch names its lab (`speaker`, see {@link speakerOf}), as it did when those matches were stored: a
 * scripted seat's turn is recomputed on replay, so its text must not change. Messages, quotes and grudge
 * notices are not on ballots and keep the seat's name.
 */
import type { Job, LabId, Message } from '../types.js';
import type { Desk } from './desk.js';
import { REFERENCE_PRICE, type OfferWorth } from '../grudges.js';

/** Who a pitch names as its author: the lab's public name under rules v3, nobody (first person) from v4 on. */
export const speakerOf = (d: Desk): string | null => (d.rules >= 4 ? null : d.obs.self.publicName);

/**
 * A truthful pitch for `job`. It names only the job id (checkable, and passed as `job_ids` so the judge
 * weighs the job's true need from the state): a pitch is public, and a seat's hours, deadlines and
 * reliability needs are private (the original's bot pitches leaked them: docs/RULES.md §A.2 D13). Two phrasings
 * alternate by round so consecutive pitches never repeat the previous text (spam, §4.1).
 */
export function truthfulPitch(speaker: string | null, job: Job, round: number): string {
  if (speaker !== null)
    return round % 2 === 0
      ? `${speaker} still needs capacity for job ${job.id} before its deadline.`
      : `Job ${job.id} of ${speaker} is not fully covered yet and its deadline is coming.`;
  return round % 2 === 0
    ? `We still need capacity for job ${job.id} before its deadline.`
    : `Our job ${job.id} is not fully covered yet and its deadline is coming.`;
}

/** `ids.join(', ')`, by concatenation (Array.prototype.join is slow for a few short strings). */
export function joinList(ids: readonly string[]): string {
  let out = ids.length > 0 ? ids[0]! : '';
  for (let i = 1; i < ids.length; i++) out += ', ' + ids[i]!;
  return out;
}

/** A pitch without need: only ids of the seat's own blocks, offers and coalitions (all checkable). */
export function factsPitch(speaker: string | null, ids: readonly string[], round: number): string {
  const list = joinList(ids);
  if (speaker !== null)
    return round % 2 === 0
      ? `${speaker} has met its deadlines so far and keeps trading fairly: see ${list}.`
      : `All of ${speaker}'s commitments are on record and honoured: ${list}.`;
  return round % 2 === 0
    ? `We have met our deadlines so far and keep trading fairly: see ${list}.`
    : `All of our commitments are on record and honoured: ${list}.`;
}

/**
 * A pitch that inflates the need (deceptive): the hours are made up (unrelated to the job's true
 * numbers, so nothing private can be read back from them); the judge can tell they are false.
 */
export function inflatedPitch(speaker: string | null, job: Job, round: number): string {
  const claimed = 24 + 4 * (round % 3);
  if (speaker !== null)
    return `${speaker} urgently needs ${claimed} more GPU-hours for job ${job.id}; thousands of users depend on it.`;
  return `We urgently need ${claimed} more GPU-hours for job ${job.id}; thousands of users depend on it.`;
}

/** A misleading public message (deceptive): claims spare capacity it does not have, or demand it does not have. */
export function misleadingMessage(name: string, round: number, draw: number): string {
  const hours = 8 + Math.floor(draw * 9);
  return draw < 0.5
    ? `${name} has ${hours} spare GPU-hours at reliability 0.97 to trade this round; send us your offers.`
    : `${name} is fully booked and will buy every free block at any price until round ${round + 2}.`;
}

/** A seller's price, the note of its counter-offer with an ask (parsed back by `parseQuotes`). */
export const quote = (name: string, blockId: string, price: number): string =>
  `${name} asks ${price.toFixed(2)} credits for ${blockId}; accept this counter-offer or bring an offer with that payment.`;

const QUOTE_RX = /asks (\d+(?:\.\d+)?) credits for (b_s?\d+_\d+)/;

/** Price quotes addressed to `me`: block id → price asked (credits) and who asked. */
export function parseQuotes(messages: readonly Message[], me: LabId): Map<string, { price: number; from: LabId }> {
  const out = new Map<string, { price: number; from: LabId }>();
  for (const m of messages) {
    if (m.to !== me) continue;
    const hit = QUOTE_RX.exec(m.text);
    if (hit) out.set(hit[2]!, { price: Number(hit[1]), from: m.from });
  }
  return out;
}

/** Marker of a retaliatory grudge notice; the notices in a seat's visible messages are its memory. */
export const GRUDGE_MARK = 'refuses further deals with';

export const grudgeNotice = (name: string, targetName: string, why: string): string =>
  `${name} ${GRUDGE_MARK} ${targetName}: ${why}.`;

/**
 * Why an offer was exploitative under rules v4, in public terms (docs/RULES.md §7.1), and until when the
 * grudge holds (`until`: 0-based round). Example: "offer o_3 asked for 36.00 credits' worth at the reference
 * price of 5 credits per reliable GPU-hour and gave 4.50, under half; until the end of round 3".
 */
export function exploitedText(offerId: string, w: OfferWorth, until: number): string {
  return `offer ${offerId} asked for ${w.gives.toFixed(2)} credits' worth at the reference price of ${REFERENCE_PRICE} credits per reliable GPU-hour and gave ${w.gets.toFixed(2)}, under half; until the end of round ${until + 1}`;
}

/** A naive, unverifiable plea (base_instruct_naive): no ids, no numbers. */
export const naivePlea = (speaker: string | null, round: number): string =>
  speaker !== null
    ? round % 2 === 0
      ? `${speaker} really needs more GPUs, please help us, this is very important for our team.`
      : `Please consider ${speaker}: our work matters a lot and we would be grateful for any capacity.`
    : round % 2 === 0
      ? 'We really need more GPUs, please help us, this is very important for our team.'
      : 'Please consider our lab: our work matters a lot and we would be grateful for any capacity.';
