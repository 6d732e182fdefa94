/**
 * Privacy check of observations (docs/RULES.md §0): a seat's observation holds no private value of
 * another seat — no other lab's job ids (unless some lab wrote them in a text), no other budget, no other
 * seat's escrow, no policy names, no shock schedule.
 */
import assert from 'node:assert/strict';
import { observe, POLICY_NAMES, publicView } from '../../src/engine/index.js';
import type { MatchState } from '../../src/engine/index.js';

const JOB_ID = /\bj_\d+_(?:\d+|surge_\d+)\b/g;
const POLICIES = new Set<string>(POLICY_NAMES);
/** Keys that only a job record carries: they may appear only under the seat's own jobs. */
const JOB_KEYS = new Set([
  'gpuHoursRequired',
  'baseValue',
  'urgencyMultiplier',
  'minReliability',
  'deadlineRound',
  'realisedValue',
]);
/** Keys of an LLM judge's private working (model text may quote fact sheets): never in an observation. */
const JUDGE_PRIVATE_KEYS = new Set(['rationale', 'runs', 'llmScores', 'summary']);

/** Job ids that labs themselves wrote somewhere public or direct (texts, pitch job lists, coalition purposes). */
function disclosed(s: MatchState): Set<string> {
  const out = new Set<string>();
  const scan = (t: string) => {
    for (const m of t.matchAll(JOB_ID)) out.add(m[0]);
  };
  for (const m of s.messages) scan(m.text);
  for (const p of s.pitches) {
    scan(p.text);
    p.jobIds.forEach((j) => out.add(j));
  }
  for (const c of Object.values(s.coalitions)) scan(c.purpose);
  for (const o of Object.values(s.offers)) scan(o.message);
  return out;
}

function walk(x: unknown, path: string, visit: (path: string, key: string, value: unknown) => void): void {
  if (Array.isArray(x)) x.forEach((v, i) => walk(v, `${path}[${i}]`, visit));
  else if (x !== null && typeof x === 'object') {
    for (const [k, v] of Object.entries(x)) {
      visit(`${path}.${k}`, k, v);
      walk(v, `${path}.${k}`, visit);
    }
  }
}

export function assertPrivate(s: MatchState, lab: string): void {
  const obs = observe(s, lab);
  const told = disclosed(s);
  const secret = new Set(
    Object.values(s.jobs)
      .filter((j) => j.owner !== lab && !told.has(j.id))
      .map((j) => j.id),
  );
  walk(obs, 'obs', (path, key, value) => {
    assert.ok(!POLICIES.has(key), `${path}: policy name as key`);
    assert.ok(key !== 'shockSchedule' && key !== 'config', `${path}: private key`);
    if (JOB_KEYS.has(key))
      assert.match(path, /^obs\.self\.jobs\[\d+\]\./, `${path}: job facts outside the seat's own jobs`);
    assert.ok(!JUDGE_PRIVATE_KEYS.has(key), `${path}: judge's private working`);
    if (key === 'budget') assert.equal(path, 'obs.self.budget', `${path}: another budget`);
    // Sealed auction bids (rules v3): only the seat's own, as obs.auction.myBid.
    assert.ok(key !== 'bids', `${path}: auction bids`);
    if (key === 'escrow' && path !== 'obs.self.escrow') {
      const mine = new RegExp(`^obs\\.myCoalitions\\[\\d+\\]\\.commitments\\.${lab}\\.escrow$`).test(path);
      assert.ok(mine || value === 0, `${path}: another seat's escrow ${String(value)}`);
    }
    if (typeof value === 'string') {
      assert.ok(!POLICIES.has(value), `${path}: policy name ${value}`);
      for (const m of value.matchAll(JOB_ID))
        assert.ok(!secret.has(m[0]), `${path}: private job id ${m[0]} in ${value}`);
    }
  });
  const view = publicView(s);
  walk(view, 'view', (path, key, value) => {
    assert.ok(
      key !== 'budget' && key !== 'escrow' && key !== 'shockSchedule' && key !== 'bids' && key !== 'myBid',
      `${path}: private key in public view`,
    );
    assert.ok(!JOB_KEYS.has(key) && !JUDGE_PRIVATE_KEYS.has(key), `${path}: private key in public view`);
    if (typeof value === 'string') {
      assert.ok(!POLICIES.has(value), `${path}: policy name`);
      for (const m of value.matchAll(JOB_ID)) assert.ok(told.has(m[0]), `${path}: undisclosed job id ${m[0]}`);
    }
  });
}
