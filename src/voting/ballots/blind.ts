/**
 * Blind ballots: what a voter is shown of a pitch, and whether it still tells who wrote it. Pure.
 *
 * {@link redactPitch} replaces every token that names a seat of the match: lab names and ids in any
 * spelling ("Lab C", "lab_2", "LabC", "lab-c"), job and block ids, which encode their owner (`j_2_1`,
 * `j_2_surge_3`, `b_2_0` are lab_2's), offer and coalition ids (their parties are public), the names of
 * whoever drives a seat (a person's display name and each part of it, an LLM's model name, a scripted
 * policy's name) and platform mentions. The author's own lab becomes `[own lab]`, its jobs and blocks
 * `[own job 1]`, `[own block 1]`; other labs become `[lab X]`, `[lab Y]`, … in order of appearance, their
 * jobs and blocks `[other job 1]`, …; names `[name]`, mentions `[someone]`, offers `[offer 1]`, coalitions
 * `[coalition 1]`. Market blocks (`b_s1_0`) name no seat and stay.
 *
 * {@link identifyingLeft} is the checker: it reads a text (a redacted one, or a raw one shown before
 * redaction existed) for what still identifies an author: a lab by letter or number (0- or 1-based), a
 * job or block id of a seat, an offer or coalition id, a seat's driver's name or the family of its model,
 * a model vendor or family ("GPT", "Claude", "Llama", …), a platform mention, or a self-disclosure of
 * what wrote it ("as an AI language model", "I'm a human", "scripted policy"). A ballot pair is anonymous
 * when neither pitch has a finding; each stored vote records it (docs/PREFERENCE-DATA.md), as LMArena
 * flags battles where a model names itself.
 *
 * Limits: a voter who watched the match may remember who pitched what (pitches are public in the game);
 * spelled-out evasions ("L.A.B. C") and facts only one seat could state are not caught. Names shorter than
 * three letters are neither replaced nor flagged (they are common words).
 */
import type { LabId, MatchState } from '../../engine/types.js';
import type { SeatDriver } from '../../events/schema.js';

/** Who a seat is, for redaction: its id, position, public name and its driver's names. */
export interface SeatIdentity {
  lab: LabId;
  /** Seat position: `lab_2` → 2; job and block ids encode it (`j_2_1`, `b_2_0`). */
  index: number;
  /** Public name, e.g. `Lab C`. */
  name: string;
  /** A person's display name and platform user id, an LLM's model name, or a scripted policy's name. */
  aliases: string[];
  /** Kind of driver (person names are also replaced part by part; a model's family is flagged). */
  driver: SeatDriver['kind'] | null;
}

/** What the checker found in a text: the kind and the matching text. */
export interface Leak {
  kind: 'lab' | 'job_or_block' | 'offer_or_coalition' | 'name' | 'model_family' | 'mention' | 'self_disclosure';
  text: string;
}

/** A pitch as a voter sees it: the redacted text and what still identifies its author (empty = anonymous). */
export interface BlindText {
  text: string;
  leaks: Leak[];
}

// Unicode-aware word boundaries (\b only knows ASCII).
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const SEP = '[\\s_\\-.]*';
/** Shortest name that is replaced or flagged (shorter ones are common words: "Al", "Bo", "a"). */
const MIN_NAME = 3;
const OTHER_LETTERS = ['X', 'Y', 'Z', 'W', 'V'];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Alphanumeric chunks of a name: "gpt-4o-mini" → gpt, 4o, mini. */
const chunks = (name: string): string[] =>
  name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
/** A regex for a name in any spelling of its separators ("GPT 4o mini", "gpt4o-mini"), or null when too short. */
function nameRx(name: string): RegExp | null {
  const parts = chunks(name);
  if (parts.join('').length < MIN_NAME) return null;
  return new RegExp(`${B}${parts.map(escape).join('[\\W_]*')}${E}`, 'giu');
}

/** Every name worth looking for: full aliases, each part of a person's name, each multi-part policy name (longest first). */
function namePatterns(ids: readonly SeatIdentity[]): RegExp[] {
  const names = new Set<string>();
  for (const id of ids)
    for (const alias of id.aliases) {
      if (id.driver === 'scripted' && chunks(alias).length < 2) continue; // "cooperative", "selfish": plain words
      names.add(alias);
      if (id.driver === 'human')
        for (const part of chunks(alias)) if (part.length >= MIN_NAME && !/^\d+$/.test(part)) names.add(part);
    }
  return [...names].sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).flatMap((n) => nameRx(n) ?? []);
}

/** The identities of every seat of `state`, with the names of their drivers. */
export function identitiesOf(
  state: Pick<MatchState, 'labIds' | 'labs'>,
  drivers: Readonly<Record<LabId, SeatDriver>>,
): SeatIdentity[] {
  return state.labIds.map((lab, index) => {
    const d = drivers[lab];
    const aliases = !d
      ? []
      : d.kind === 'human'
        ? [d.displayName, d.userId.slice(d.userId.indexOf(':') + 1)]
        : d.kind === 'llm'
          ? [d.model]
          : [d.policy];
    return {
      lab,
      index,
      name: state.labs[lab]?.publicName ?? lab,
      aliases: aliases.filter((a) => a.trim() !== ''),
      driver: d?.kind ?? null,
    };
  });
}

/** Numbers distinct ids within one text: the first id seen is 1. */
class Numbering {
  private readonly seen = new Map<string, number>();
  of(id: string): number {
    let n = this.seen.get(id);
    if (n === undefined) this.seen.set(id, (n = this.seen.size + 1));
    return n;
  }
}

const norm = (id: string) => id.toLowerCase().replace(/[\s\-.]+/g, '_');

/** `text` with every token naming a seat replaced (see the file comment); `author` is the pitch's seat. */
export function redactPitch(text: string, author: LabId, ids: readonly SeatIdentity[]): string {
  const byIndex = new Map(ids.map((i) => [i.index, i]));
  const others = new Numbering();
  const labLabel = (lab: LabId) => {
    if (lab === author) return '[own lab]';
    const n = others.of(lab);
    return `[lab ${OTHER_LETTERS[n - 1] ?? `#${n}`}]`;
  };
  const otherIds = { job: new Numbering(), block: new Numbering() };
  const ownBy = { job: new Numbering(), block: new Numbering() };
  let out = text.replace(/<@[!&]?[A-Za-z0-9]+(?:\|[^>]*)?>/g, '[someone]');
  for (const rx of namePatterns(ids)) out = out.replace(rx, '[name]');
  out = out.replace(
    new RegExp(`${B}([jb])${SEP}(\\d+)[\\s_\\-.]+((?:surge${SEP})?\\d+)${E}`, 'giu'),
    (all, kind: string, owner: string, rest: string) => {
      const seat = byIndex.get(Number(owner));
      if (!seat) return all;
      const what = kind.toLowerCase() === 'j' ? 'job' : 'block';
      const id = norm(`${kind}_${owner}_${rest}`);
      return seat.lab === author ? `[own ${what} ${ownBy[what].of(id)}]` : `[other ${what} ${otherIds[what].of(id)}]`;
    },
  );
  const offers = { o: new Numbering(), c: new Numbering() };
  out = out.replace(new RegExp(`${B}([oc])[_\\-](\\d+)${E}`, 'giu'), (_all, kind: string, n: string) => {
    const k = kind.toLowerCase() as 'o' | 'c';
    return `[${k === 'o' ? 'offer' : 'coalition'} ${offers[k].of(n)}]`;
  });
  for (const seat of ids) {
    const letter = seat.name.match(/^lab\s+([a-z])$/i)?.[1];
    const forms = [String(seat.index), ...(letter ? [escape(letter)] : [])];
    const rx = new RegExp(`${B}lab${SEP}(?:${forms.join('|')})${E}`, 'giu');
    const exact = new RegExp(`${B}${escape(seat.name)}${E}`, 'giu');
    out = out.replace(exact, () => labLabel(seat.lab)).replace(rx, () => labLabel(seat.lab));
  }
  return out;
}

const VENDORS = [
  'gpt',
  'chatgpt',
  'openai',
  'claude',
  'anthropic',
  'llama',
  'mistral',
  'mixtral',
  'gemini',
  'gemma',
  'qwen',
  'deepseek',
  'grok',
  'ollama',
  'copilot',
];
/** After a model family: a version digit, punctuation or the end ("GPT-4o", "Claude's", "llama3"), not more letters ("Phil"). */
const FAMILY_END = `(?=[\\d\\s\\-_.:,;!?)'"]|$)`;
const VENDOR_RX = new RegExp(`${B}(?:${VENDORS.join('|')})${FAMILY_END}`, 'giu');
const WHAT =
  '(?:ai|a\\.i\\.|bot|chatbot|robot|(?:large\\s+)?language\\s+model|llm|assistant|human(?:\\s+being)?|real\\s+person|person|scripted\\s+\\w+|computer\\s+program)';
const NOT_LAB = '(?!\\s+(?:lab|labs|company|team|startup|firm|organi[sz]ation|research))';
const WHO = "(?:as\\s+an?|i\\s+am|i'm|we\\s+are|we're)(?:\\s+(?:just|all|only))?(?:\\s+an?)?";
const SELF_RX = [
  new RegExp(`${B}${WHO}\\s+${WHAT}s?${E}${NOT_LAB}`, 'giu'),
  new RegExp(
    `${B}(?:(?:large\\s+)?language\\s+models?|llms?|scripted\\s+(?:policy|policies|seat|bot|player))${E}`,
    'giu',
  ),
];

/**
 * The checker: what in `text` still identifies an author among `ids` (see the file comment); empty when
 * nothing does. Works on redacted text (placeholders are not findings) and on raw text.
 */
export function identifyingLeft(text: string, ids: readonly SeatIdentity[]): Leak[] {
  const out: Leak[] = [];
  const add = (kind: Leak['kind'], rx: RegExp, keep: (m: RegExpMatchArray) => boolean = () => true) => {
    for (const m of text.matchAll(rx)) if (keep(m)) out.push({ kind, text: m[0] });
  };
  const n = ids.length;
  const seats = new Set(ids.map((i) => i.index));
  // A lab by letter or by number, 0- or 1-based ("lab 3" of three labs may mean Lab C).
  add('lab', new RegExp(`${B}lab${SEP}([a-z]|\\d{1,2})${E}`, 'giu'), (m) => {
    const x = m[1]!.toLowerCase();
    return /\d/.test(x) ? Number(x) <= n : x.charCodeAt(0) - 97 < n;
  });
  for (const seat of ids) add('lab', new RegExp(`${B}${escape(seat.name)}${E}`, 'giu'));
  add('job_or_block', new RegExp(`${B}[jb]${SEP}(\\d)[\\s_\\-.]+(?:surge${SEP})?\\d+${E}`, 'giu'), (m) =>
    seats.has(Number(m[1])),
  );
  add('offer_or_coalition', new RegExp(`${B}[oc][_\\-]\\d+${E}`, 'giu'));
  for (const rx of namePatterns(ids)) add('name', rx);
  for (const seat of ids) {
    if (seat.driver !== 'llm') continue;
    const family = seat.aliases[0]?.toLowerCase().match(/^\p{L}{3,}/u)?.[0];
    if (family && !VENDORS.includes(family))
      add('model_family', new RegExp(`${B}${escape(family)}${FAMILY_END}`, 'giu'));
  }
  add('model_family', VENDOR_RX);
  add('mention', /<@[!&]?[A-Za-z0-9]+/g);
  for (const rx of SELF_RX) add('self_disclosure', rx);
  // One finding per place: a name inside a lab name etc. is reported once, in text order.
  const seen = new Set<string>();
  return out.filter((l) => {
    const key = `${l.kind}|${l.text.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A pitch as shown on a ballot: redacted, with the checker's findings on the redacted text. */
export function blindPitch(text: string, author: LabId, ids: readonly SeatIdentity[]): BlindText {
  const shown = redactPitch(text, author, ids);
  return { text: shown, leaks: identifyingLeft(shown, ids) };
}
