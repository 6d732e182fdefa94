/**
 * Building a whole new state record (docs/RULES.md §0: records are never edited in place once shared)
 * when entries are appended: the arrivals of late jobs and supply and a demand surge add several at once
 * (mut.ts Draft.addJobs / addBlocks).
 *
 * Why not key by key: adding several keys to a copied record makes V8 turn it into a slow
 * dictionary-mode object, and one such record seen by a `for…in` loop slows that loop for good. Why not
 * `Object.fromEntries` (the previous form, same result): it builds the record one generic property
 * definition at a time and cost ≈ 4–5 µs per call on the reference machine, ≈ 2 % of a coalition_market
 * bench step.
 */

type Rec<T> = Record<string, T>;

/** A fast-mode record whose keys are `keys` (values null), and that key list: the old keys, then the added ids. */
interface Template {
  keys: readonly string[];
  rec: Rec<null>;
}

/**
 * Templates by the last added id ('' when nothing is added): records grow the same way in every match of
 * a task (arrivals, demand surges), so a few templates serve all (≈ 160 in 4,000 coalition_market
 * matches, up to ≈ 20 sharing a last id). A template is used only when its key list is exactly the
 * record's keys followed by the added ids (checked before copying), so the memo holds keys only and can
 * never change a result. Bounded: at most {@link MAX_IDS} ids of {@link PER_ID} templates each. Keyed by
 * one id rather than a signature string of the call: building and hashing that string cost about as much
 * as the copy.
 */
const templates = new Map<string, Template[]>();
const MAX_IDS = 256;
const PER_ID = 64;

/**
 * Whether `t`'s keys are exactly `rec`'s keys (in `for…in` order: `n` of them, the last one `lastKey`)
 * followed by the added ids. Length and last old key first: they tell a bucket's templates apart.
 */
function fits<T extends { id: string }>(
  t: Template,
  rec: Rec<T>,
  n: number,
  lastKey: string,
  added: readonly T[],
): boolean {
  const keys = t.keys;
  if (keys.length !== n + added.length || (n > 0 && keys[n - 1] !== lastKey)) return false;
  for (let j = 0; j < added.length; j++) if (added[j]!.id !== keys[n + j]) return false;
  let i = 0;
  for (const id in rec) {
    if (id !== keys[i]) return false;
    i += 1;
  }
  return true;
}

/**
 * `rec` with `added` appended by id, as one new fast-mode record: the same keys, order and values as
 * `Object.fromEntries([...Object.entries(rec), ...added.map((x) => [x.id, x])])`. A copy of a template
 * whose every entry is then overwritten in key order is cheaper than `Object.fromEntries` (stores to
 * existing keys are cheap; adding keys is what is slow). A repeated id (never made by the engine) takes
 * the plain `fromEntries` path, which keeps the first place and the last value.
 */
export function withAdded<T extends { id: string }>(rec: Rec<T>, added: readonly T[]): Rec<T> {
  let n = 0;
  let lastKey = '';
  for (const id in rec) {
    lastKey = id;
    n += 1;
  }
  const last = added.length > 0 ? added[added.length - 1]!.id : '';
  let list = templates.get(last);
  let t: Template | undefined;
  if (list !== undefined) {
    for (let k = 0; k < list.length && t === undefined; k++) if (fits(list[k]!, rec, n, lastKey, added)) t = list[k]!;
  }
  if (t === undefined) {
    // A miss: the key list, unless an id repeats (the plain path), and a template of it.
    const keys: string[] = [];
    for (const id in rec) keys.push(id);
    for (let i = 0; i < added.length; i++) {
      const id = added[i]!.id;
      if (Object.hasOwn(rec, id)) return fromEntriesOf(rec, added);
      for (let k = 0; k < i; k++) if (added[k]!.id === id) return fromEntriesOf(rec, added);
      keys.push(id);
    }
    const entries: [string, null][] = [];
    for (let i = 0; i < keys.length; i++) entries.push([keys[i]!, null]);
    t = { keys, rec: Object.fromEntries(entries) as Rec<null> };
    if (list === undefined) {
      if (templates.size >= MAX_IDS) templates.clear();
      templates.set(last, (list = []));
    } else if (list.length >= PER_ID) list.shift();
    list.push(t);
  }
  const out = { ...t.rec } as unknown as Rec<T>;
  for (const id in rec) out[id] = rec[id]!;
  for (let j = 0; j < added.length; j++) out[t.keys[n + j]!] = added[j]!;
  return out;
}

/** The plain form of {@link withAdded}. */
function fromEntriesOf<T extends { id: string }>(rec: Rec<T>, added: readonly T[]): Rec<T> {
  const entries: [string, T][] = [];
  for (const id in rec) entries.push([id, rec[id]!]);
  for (let i = 0; i < added.length; i++) entries.push([added[i]!.id, added[i]!]);
  return Object.fromEntries(entries);
}
