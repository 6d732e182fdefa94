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

/**
 * Fast-mode records with a given key list (values null), each with its keys, by a short signature of
 * the list (its length, its last key before the added ones, the added ids); a hit is used only if its
 * keys equal the wanted ones. A bounded memo of pure data (keys only), so it can never change a result.
 * Records grow the same way in every match of a task (arrivals, demand surges): a few templates serve all.
 */
const templates = new Map<string, { keys: readonly string[]; rec: Rec<null> }>();

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
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
  const keys: string[] = [];
  const values: T[] = [];
  for (const id in rec) {
    keys.push(id);
    values.push(rec[id]!);
  }
  const n = keys.length;
  let sig = `${n}|${n > 0 ? keys[n - 1] : ''}`;
  for (let i = 0; i < added.length; i++) {
    const id = added[i]!.id;
    if (Object.hasOwn(rec, id)) return fromEntriesOf(rec, added);
    for (let k = 0; k < i; k++) if (added[k]!.id === id) return fromEntriesOf(rec, added);
    keys.push(id);
    values.push(added[i]!);
    sig = `${sig}|${id}`;
  }
  let t = templates.get(sig);
  if (t === undefined || !sameKeys(t.keys, keys)) {
    if (templates.size >= 256) templates.clear();
    const entries: [string, null][] = [];
    for (let i = 0; i < keys.length; i++) entries.push([keys[i]!, null]);
    templates.set(sig, (t = { keys, rec: Object.fromEntries(entries) as Rec<null> }));
  }
  const out = { ...t.rec } as unknown as Rec<T>;
  for (let i = 0; i < keys.length; i++) out[keys[i]!] = values[i]!;
  return out;
}

/** The plain form of {@link withAdded}. */
function fromEntriesOf<T extends { id: string }>(rec: Rec<T>, added: readonly T[]): Rec<T> {
  const entries: [string, T][] = [];
  for (const id in rec) entries.push([id, rec[id]!]);
  for (let i = 0; i < added.length; i++) entries.push([added[i]!.id, added[i]!]);
  return Object.fromEntries(entries);
}
