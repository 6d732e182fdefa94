/**
 * Copy-on-write editing of a MatchState (docs/RULES.md §0: the input state is never mutated, and no
 * step deep-copies the whole state). A Draft shallow-copies a record map the first time one of its
 * entries is written and clones only the entities it touches; everything else is shared with the base.
 *
 * Convention for callers: an entity returned by a write accessor (`lab()`, `block()`, …) is the
 * draft's own shallow clone and may be assigned to; its nested arrays/objects are still shared, so
 * replace them (`job.allocatedBlockIds = [...old, id]`) instead of mutating them in place.
 * `coalition()` is the exception: its commitments and hoursUsedByPartners are cloned too.
 */
import type { Block, Coalition, Job, Lab, LabId, MatchState, Message, Offer, SeatStats } from './types';
import type { RewardColumn } from './reward';
import { round4 } from './util';

type Rec<T> = Record<string, T>;
type Key = 'labs' | 'blocks' | 'jobs' | 'offers' | 'coalitions' | 'seats';

// One shallow-copy function per record kind and per entity kind: a spread copy is fast only while
// its call site sees few object shapes, and one shared site would see them all (V8 megamorphic).
const COPY_MAP: Record<Key, (m: Rec<unknown>) => Rec<unknown>> = {
  labs: (m) => ({ ...m }),
  blocks: (m) => ({ ...m }),
  jobs: (m) => ({ ...m }),
  offers: (m) => ({ ...m }),
  coalitions: (m) => ({ ...m }),
  seats: (m) => ({ ...m }),
};
const COPY_ENTITY: Record<Key, (x: object) => object> = {
  labs: (x) => ({ ...x }),
  blocks: (x) => ({ ...x }),
  jobs: (x) => ({ ...x }),
  offers: (x) => ({ ...x }),
  coalitions: (x) => ({ ...x }),
  seats: (x) => ({ ...x }),
};

export class Draft {
  /** The state being built: a shallow copy of the base whose touched records are copies. */
  readonly s: MatchState;

  constructor(readonly base: MatchState) {
    this.s = { ...base };
  }

  /** The draft's own copy of record `key` (copied from the base on first use). */
  private map<T>(key: Key): Rec<T> {
    const baseMap = this.base[key] as Rec<T>;
    let map = this.s[key] as Rec<T>;
    if (map === baseMap) {
      map = COPY_MAP[key](baseMap) as Rec<T>;
      (this.s as unknown as Record<string, Rec<T>>)[key] = map;
    }
    return map;
  }

  private entity<T extends object>(key: Key, id: string): T {
    const map = this.map<T>(key);
    const cur = map[id];
    if (cur === undefined) throw new Error(`draft: no ${key} entry ${id}`);
    if (cur !== (this.base[key] as Rec<T>)[id]) return cur;
    const copy = COPY_ENTITY[key](cur) as T;
    map[id] = copy;
    return copy;
  }

  private insert<T>(key: 'blocks' | 'jobs' | 'offers' | 'coalitions', id: string, value: T): void {
    this.map<T>(key)[id] = value;
  }

  lab(id: LabId): Lab {
    return this.entity<Lab>('labs', id);
  }
  block(id: string): Block {
    return this.entity<Block>('blocks', id);
  }
  job(id: string): Job {
    return this.entity<Job>('jobs', id);
  }
  offer(id: string): Offer {
    return this.entity<Offer>('offers', id);
  }
  seat(id: LabId): SeatStats {
    return this.entity<SeatStats>('seats', id);
  }
  coalition(id: string): Coalition {
    const baseC = this.base.coalitions[id];
    const c = this.entity<Coalition>('coalitions', id);
    if (c.commitments === baseC?.commitments) {
      const commitments: Coalition['commitments'] = {};
      for (const m of c.members) {
        const cm = c.commitments[m];
        if (cm) commitments[m] = { ...cm };
      }
      c.commitments = commitments;
      c.hoursUsedByPartners = { ...c.hoursUsedByPartners };
    }
    return c;
  }

  addBlock(b: Block): void {
    this.insert('blocks', b.id, b);
  }
  addJob(j: Job): void {
    this.insert('jobs', j.id, j);
  }
  addOffer(o: Offer): void {
    this.insert('offers', o.id, o);
  }
  addCoalition(c: Coalition): void {
    this.insert('coalitions', c.id, c);
  }
  addMessage(m: Message): void {
    this.s.messages = [...this.s.messages, m];
  }

  /** Add to a seat's pending reward (a reward earned outside its own steps; see SeatStats.pendingReward). */
  addPending(lab: LabId, col: RewardColumn, v: number): void {
    const seat = this.seat(lab);
    const pending = { ...seat.pendingReward };
    pending[col] = round4(pending[col] + v);
    seat.pendingReward = pending;
  }

  /** Move money between budgets (credits, 2 dp). */
  setBudget(lab: LabId, budget: number): void {
    this.lab(lab).budget = Math.round(budget * 100) / 100;
  }
}

/** Where reward of an event goes: to a seat's breakdown being built (step or close) or its pending. */
export interface RewardSink {
  add(lab: LabId, col: RewardColumn, v: number): void;
}
