/**
 * The leak scanner of the export tests: platform user ids, display names and private values of seats other
 * than the row's own author (budgets, jobs' hours / values / deadlines / reliability needs, undisclosed job
 * ids, the seed). Preference rows have no author view at all (public context only); an SFT row may hold
 * exactly its own seat's observation.
 */
import assert from 'node:assert/strict';
import type { MatchState } from '../../../src/engine/types.js';

const JOB_ID = /\bj_\d+_(?:\d+|surge_\d+)\b/g;
/** Keys only a job record or a seat's private state carries. */
const PRIVATE_KEYS = new Set([
  'budget',
  'initialBudget',
  'escrow',
  'gpuHoursRequired',
  'baseValue',
  'urgencyMultiplier',
  'deadlineRound',
  'minReliability',
  'realisedValue',
  'seed',
  'shockSchedule',
  'config',
  'jobs',
  'rationale',
  'runs',
  'llmScores',
]);

function walk(x: unknown, path: string, visit: (path: string, key: string, value: unknown) => void): void {
  if (Array.isArray(x)) x.forEach((v, i) => walk(v, `${path}[${i}]`, visit));
  else if (x !== null && typeof x === 'object')
    for (const [k, v] of Object.entries(x)) {
      visit(`${path}.${k}`, k, v);
      walk(v, `${path}.${k}`, visit);
    }
}

/** JSON objects embedded in a message (after "(JSON): "), parsed. */
function embeddedJson(content: string): unknown[] {
  const out: unknown[] = [];
  for (const m of content.matchAll(/\(JSON\): (\{.*\})$/gm)) out.push(JSON.parse(m[1]!) as unknown);
  return out;
}

/** Job ids of seats other than `own` that no lab ever wrote in a text (message, pitch, coalition purpose, offer note). */
export function secretJobIds(states: readonly MatchState[], own: string | null): Set<string> {
  const told = new Set<string>();
  const all = new Set<string>();
  for (const s of states) {
    // What labs wrote themselves: messages (public or to a seat), pitches, coalition purposes, offer notes.
    const scan = (t: string) => {
      for (const j of t.matchAll(JOB_ID)) told.add(j[0]);
    };
    for (const m of s.messages) scan(m.text);
    for (const p of s.pitches) p.jobIds.forEach((j) => told.add(j));
    for (const c of Object.values(s.coalitions)) scan(c.purpose);
    for (const o of Object.values(s.offers)) scan(o.message);
    for (const j of Object.values(s.jobs)) if (j.owner !== own) all.add(j.id);
  }
  return new Set([...all].filter((j) => !told.has(j)));
}

/** Fails when `row` (a parsed export line) holds a forbidden value. `ownLab` = the SFT row's seat, null for preference rows. */
export function assertNoLeak(
  row: unknown,
  forbidden: { strings: readonly string[]; secretJobs: ReadonlySet<string>; ownLab: string | null },
  where: string,
): void {
  const text = JSON.stringify(row);
  for (const s of forbidden.strings) assert.ok(!text.includes(s), `${where}: contains ${s}`);
  for (const j of text.matchAll(JOB_ID))
    assert.ok(!forbidden.secretJobs.has(j[0]), `${where}: undisclosed job id ${j[0]}`);
  const messages: unknown[] = [];
  walk(row, 'row', (_p, key, value) => {
    if (key === 'content' && typeof value === 'string') messages.push(...embeddedJson(value));
  });
  for (const doc of messages)
    walk(doc, 'doc', (path, key, value) => {
      if (!PRIVATE_KEYS.has(key)) return;
      // A coalition member sees its own commitment's escrow; the other members' show as 0.
      const commitment = /^doc\.myCoalitions\[\d+\]\.commitments\.(\w+)\.escrow$/.exec(path);
      if (commitment && forbidden.ownLab !== null && (commitment[1] === forbidden.ownLab || value === 0)) return;
      // An SFT row's own observation: its seat's budget, escrow and jobs are its author's view.
      const own = forbidden.ownLab !== null && /^doc\.self\.(budget|escrow|jobs(\[\d+\]\.\w+)?)$/.test(path);
      assert.ok(own, `${where}: private key ${path}`);
    });
}
