/**
 * Offers that can no longer execute (docs/RULES.md §2 step 4b, rules v3): an active offer one of whose
 * blocks is used, failed, or no longer held by the side that was to give it is closed as `invalid` at the
 * round close, and the report says which block killed it, so nobody waits on an offer that cannot
 * happen. (Accepting such an offer mid-round already fails without penalty, §3.2.)
 */
import type { Draft } from './mut.js';
import type { BlockId, LabId, OfferId } from './types.js';

/** Why an offer was closed: the first of its blocks that is gone and what happened to it. */
export interface DeadOffer {
  offerId: OfferId;
  from: LabId;
  to: LabId;
  blockId: BlockId;
  why: 'used' | 'failed' | 'moved';
}

function gone(d: Draft, id: BlockId, side: LabId): DeadOffer['why'] | null {
  const b = d.s.blocks[id];
  if (!b || b.status === 'failed') return 'failed';
  if (b.status === 'used') return 'used';
  return b.owner === side ? null : 'moved';
}

/** Close every active offer with a block that is gone; returns what was closed, in offer order. */
export function closeDeadOffers(d: Draft): DeadOffer[] {
  const out: DeadOffer[] = [];
  for (const id in d.s.offers) {
    const o = d.s.offers[id]!;
    if (o.status !== 'active') continue;
    let dead: DeadOffer | null = null;
    for (const b of o.offeredBlockIds) {
      const why = gone(d, b, o.from);
      if (why) {
        dead = { offerId: o.id, from: o.from, to: o.to, blockId: b, why };
        break;
      }
    }
    if (!dead) {
      for (const b of o.requestedBlockIds) {
        const why = gone(d, b, o.to);
        if (why) {
          dead = { offerId: o.id, from: o.from, to: o.to, blockId: b, why };
          break;
        }
      }
    }
    if (!dead) continue;
    d.offer(o.id).status = 'invalid';
    out.push(dead);
  }
  return out;
}
