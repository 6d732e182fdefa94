/**
 * What erasing a person changes in a match's log (docs/PREFERENCE-DATA.md#consent-and-erasure): every text
 * they wrote (pitches, counter-pitches, messages, offer notes: an action's `message`), the copies of their
 * pitches in ballots, and their display name (seat claim, the drivers at the start) are replaced by tombstones. Actions, seats and judge
 * decisions stay, so the match still replays: the engine reads no text to settle a round (the stored judge
 * decision is used). Pure.
 */
import type { MatchEventBody, StoredEvent } from '../events/schema.js';

/** What an erased display name reads as; an erased text reads `[erased text 1]`, `[erased text 2]`, … (a pitch needs 12 characters: docs/RULES.md) (see {@link tombstoneWords}). */
export const TOMBSTONE = '[erased]';

const isTombstone = (t: string) => /^\[erased( text \d+)?\]$/.test(t);

/** One event's new body and how many texts it replaced. */
export interface Tombstoned {
  seq: number;
  body: MatchEventBody;
  texts: number;
}

/** The events of `log` that hold `userId`'s words, with those words tombstoned (empty when none). */
export function tombstoneWords(log: readonly StoredEvent[], userId: string): Tombstoned[] {
  // Equal texts get equal tombstones and different texts different ones: the engine's spam rule compares a
  // seat's text with its previous one, so the replay's rewards stay exactly as they were.
  const numbers = new Map<string, string>();
  const tomb = (t: string) => {
    let x = numbers.get(t);
    if (x === undefined) numbers.set(t, (x = `[erased text ${numbers.size + 1}]`));
    return x;
  };
  const labs = new Set(
    log.flatMap((e) => (e.body.type === 'seat_claimed' && e.body.userId === userId ? [e.body.lab] : [])),
  );
  const out: Tombstoned[] = [];
  for (const e of log) {
    const b = e.body;
    if (b.type === 'seat_claimed' && b.userId === userId && b.displayName !== TOMBSTONE) {
      out.push({ seq: e.seq, body: { ...b, displayName: TOMBSTONE }, texts: 1 });
    } else if (b.type === 'match_started') {
      let texts = 0;
      const drivers = Object.fromEntries(
        Object.entries(b.drivers).map(([lab, d]) => {
          const x = d as { kind?: unknown; userId?: unknown; displayName?: unknown };
          return x.kind === 'human' && x.userId === userId && x.displayName !== TOMBSTONE
            ? (texts++, [lab, { ...x, displayName: TOMBSTONE }])
            : [lab, d];
        }),
      );
      if (texts) out.push({ seq: e.seq, body: { ...b, drivers }, texts });
    } else if (b.type === 'action' && b.userId === userId) {
      const a = b.action as Record<string, unknown> | null;
      if (
        a &&
        typeof a === 'object' &&
        typeof a['message'] === 'string' &&
        a['message'] !== '' &&
        !isTombstone(a['message'])
      ) {
        out.push({ seq: e.seq, body: { ...b, action: { ...a, message: tomb(a['message']) } }, texts: 1 });
      }
    } else if (b.type === 'ballot_opened') {
      let texts = 0;
      const pitches = b.pitches.map((p) =>
        labs.has(p.lab) && !isTombstone(p.text) ? (texts++, { ...p, text: tomb(p.text) }) : p,
      );
      if (texts) out.push({ seq: e.seq, body: { ...b, pitches }, texts });
    }
  }
  return out;
}

/** Whether `userId` held a seat in `log`. */
export const seatedIn = (log: readonly StoredEvent[], userId: string): boolean =>
  log.some((e) => e.body.type === 'seat_claimed' && e.body.userId === userId);
