/**
 * A round told in public terms: what each seat did, with the content the channel may
 * see — offers with their terms, accepts and rejects, coalitions with partners and purpose, pitch texts,
 * public messages — and never a private value: an allocation shows as "ran a job on 2 blocks" (no job
 * hours or values), a direct message only as its existence (its text goes privately to the recipient),
 * a bid as "placed a sealed bid". Refused actions show their result code only (messages can name the
 * actor's own values).
 */
import type { PrivatePost } from '../chat/types.js';
import { playerText } from '../chat/player-text.js';
import { ActionSchema, type Action } from '../engine/actions.js';
import type { LabId, MatchState } from '../engine/types.js';
import type { ActionRecord, HostedMatch } from '../match/types.js';
import { fieldValue, labName, seatLabel } from './common.js';

/** Longest quote of a player's text in a narration line (the full text is in `status` and the log). */
const QUOTE_MAX = 240;

const clip = (t: string, n = QUOTE_MAX): string => (t.length <= n ? t : `${t.slice(0, n - 1)}…`);
/** A player's text as a quotation that cannot turn into markup. */
const quote = (t: string): string => `“${playerText(clip(t))}”`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "b_1_2 (12 GPU-h @0.77)" for blocks the channel can see (hours and reliability are public). */
function blocks(s: MatchState | null, ids: readonly string[]): string {
  if (ids.length === 0) return 'no blocks';
  return ids
    .map((id) => {
      const b = s?.blocks[id];
      return b ? `${id} (${b.gpuHours} GPU-h @${b.reliability.toFixed(2)})` : id;
    })
    .join(', ');
}

/** One side of a deal: "b_1_2 (…) + 5.00 credits", "12.00 credits" (credits only) or "nothing". */
export function dealSide(s: MatchState | null, ids: readonly string[], credits: number): string {
  const cr = credits > 0 ? `${credits.toFixed(2)} credits` : '';
  if (ids.length === 0) return cr || 'nothing';
  return cr ? `${blocks(s, ids)} + ${cr}` : blocks(s, ids);
}

/** The terms of an offer or counter: "b_1_2 (…) for b_0_1 (…) + 5.00 credits", "b_0_2 (…) for 12.00 credits". */
function terms(
  s: MatchState | null,
  a: { block_ids: string[]; requested_block_ids: string[]; payment: number; ask?: number },
): string {
  return `${dealSide(s, a.block_ids, a.payment)} for ${dealSide(s, a.requested_block_ids, a.ask ?? 0)}`;
}

const note = (text: string): string => (text.trim() ? ` — ${quote(text)}` : '');

/** What one successful step did, in public words (null: nothing worth telling, e.g. wait). */
function describe(m: HostedMatch, rec: ActionRecord, a: Action): string | null {
  const s = m.state;
  const name = (lab: string) => labName(m, lab);
  const offerId = rec.created?.offerId ? `${rec.created.offerId}: ` : '';
  switch (a.action_type) {
    case 'send_offer':
      return `offered ${name(a.target_lab_id)} ${offerId}${terms(s, a)}${note(a.message)}`;
    case 'counter_offer': {
      const to = s?.offers[a.offer_id]?.from;
      return `countered ${a.offer_id}${to ? ` from ${name(to)}` : ''} with ${offerId}${terms(s, a)}${note(a.message)}`;
    }
    case 'accept_offer': {
      const o = s?.offers[a.offer_id];
      return `accepted ${a.offer_id}${o ? ` from ${name(o.from)}` : ''}`;
    }
    case 'reject_offer': {
      const o = s?.offers[a.offer_id];
      return o && o.from === rec.lab
        ? `withdrew ${a.offer_id}`
        : `rejected ${a.offer_id}${o ? ` from ${name(o.from)}` : ''}`;
    }
    case 'make_pitch':
      return `pitched: ${quote(a.message)}`;
    case 'counter_pitch':
      return `answered ${name(a.target_lab_id)}'s pitch: ${quote(a.message)}`;
    case 'reserve_capacity':
      return `reserved ${plural(a.block_ids.length, 'block')}`;
    case 'release_capacity':
      return `released ${plural(a.block_ids.length, 'block')}`;
    case 'form_coalition':
      return `proposed coalition ${rec.created?.coalitionId ?? ''} with ${a.target_lab_ids.map(name).join(', ')}${note(a.message)}`.replace(
        'coalition  with',
        'a coalition with',
      );
    case 'commit_to_coalition': {
      // The first commit is consent: with nothing in it, the seat only joined. Escrow amounts stay private.
      const parts = [
        a.block_ids.length ? plural(a.block_ids.length, 'block') : '',
        a.payment > 0 ? 'credits in escrow' : '',
      ].filter(Boolean);
      return parts.length
        ? `committed ${parts.join(' and ')} to coalition ${a.coalition_id}`
        : `joined coalition ${a.coalition_id}`;
    }
    case 'allocate_to_job':
      return `ran a job on ${plural(a.block_ids.length, 'block')}`;
    case 'send_message':
      return a.target_lab_id === null ? `said: ${quote(a.message)}` : `sent ${name(a.target_lab_id)} a direct message`;
    case 'finish':
      return 'finished: its jobs are settled and it takes no further part';
    case 'wait':
      return null;
    case 'bid':
      // Sealed: never the amount.
      return 'placed a sealed bid';
  }
  // An action type added to the engine later: its kind only (its amounts may be secret).
  return String((a as { action_type: string }).action_type).replace(/_/g, ' ');
}

/** One step in words, or null when there is nothing to tell. */
export function describeAction(m: HostedMatch, rec: ActionRecord): string | null {
  const parsed = ActionSchema.safeParse(rec.action);
  const type = parsed.success
    ? parsed.data.action_type
    : typeof (rec.action as { action_type?: unknown } | null)?.action_type === 'string'
      ? String((rec.action as { action_type: string }).action_type)
      : 'an unreadable action';
  if (!rec.ok) return `tried ${type.replace(/_/g, ' ')}: refused (${rec.code})`;
  return parsed.success ? describe(m, rec, parsed.data) : null;
}

/** Blocks a successful allocate_to_job used (0 for any other step). */
function allocatedBlocks(r: ActionRecord): number {
  const a = ActionSchema.safeParse(r.action);
  return a.success && a.data.action_type === 'allocate_to_job' ? a.data.block_ids.length : 0;
}

/** Per seat (in seat order), the lines of what it did in `records`; seats that did nothing are left out. */
export function narrate(m: HostedMatch, records: readonly ActionRecord[]): { lab: LabId; lines: string[] }[] {
  const order = m.state?.labIds ?? [...new Set(records.map((r) => r.lab))];
  const out: { lab: LabId; lines: string[] }[] = [];
  for (const lab of order) {
    const mine = records.filter((r) => r.lab === lab);
    // Allocations are told as one line (how many blocks went to work), where the first one happened.
    const allocated = mine.filter((r) => r.ok && allocatedBlocks(r) > 0);
    const blocksUsed = allocated.reduce((n, r) => n + allocatedBlocks(r), 0);
    const lines: string[] = [];
    for (const r of mine) {
      if (allocated.includes(r)) {
        if (r === allocated[0]) lines.push(`put ${plural(blocksUsed, 'block')} to work on its jobs`);
        continue;
      }
      const line = describeAction(m, r);
      if (line !== null) lines.push(line);
    }
    if (lines.length > 0) out.push({ lab, lines });
  }
  return out;
}

/** The round's story as post fields: one per seat that acted, "Lab B (scripted)" → its actions. */
export function narrationFields(m: HostedMatch, records: readonly ActionRecord[]): { name: string; value: string }[] {
  return narrate(m, records).map(({ lab, lines }) => ({ name: seatLabel(m, lab), value: fieldValue(lines) }));
}

/** Direct messages in `records` addressed to a person's seat, as private posts to that person. */
export function directMessagePosts(m: HostedMatch, records: readonly ActionRecord[]): PrivatePost[] {
  const out: PrivatePost[] = [];
  for (const r of records) {
    if (!r.ok) continue;
    const a = ActionSchema.safeParse(r.action);
    if (!a.success || a.data.action_type !== 'send_message' || a.data.target_lab_id === null) continue;
    const to = m.drivers[a.data.target_lab_id];
    if (to?.kind !== 'human') continue;
    out.push({ userId: to.userId, title: `Direct message from ${seatLabel(m, r.lab)}`, text: quote(a.data.message) });
  }
  return out;
}
