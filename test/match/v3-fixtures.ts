/**
 * Stored matches of rules v3 (test/match/fixtures/v3-*.json): each a hosted match's full event log as the
 * store held it, with the sha256 of its replayed engine state and reward ledger. Written by
 * test/match/fixtures/generate-v3.ts; read by test/match/replay-v3.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TaskName } from '../../src/engine/index.js';
import { replay, type HostedMatch, type StoredEvent } from '../../src/host/index.js';
import { canonicalHash } from '../support/canonical.js';

/** One stored match. */
export interface V3Fixture {
  /** How to regenerate it (only under rules v3). */
  generatedBy: string;
  rulesVersion: 3;
  task: TaskName;
  seed: number;
  /** sha256 of the canonical JSON (test/support/canonical.ts) of the replayed engine state (HostedMatch.state). */
  stateSha256: string;
  /** sha256 of the canonical JSON of the replayed reward ledger (HostedMatch.ledger, src/match/ledger.ts). */
  ledgerSha256: string;
  /** The store's events of the match, in seq order, as stored. */
  events: StoredEvent[];
}

/** One stored match per task, with the seed it was played on. */
export const V3_MATCHES: readonly { task: TaskName; seed: number }[] = [
  { task: 'single_trade', seed: 7 },
  { task: 'market_round', seed: 1 },
  { task: 'coalition_market', seed: 42 },
];

export const fixturePath = (task: TaskName): string => join(import.meta.dirname, 'fixtures', `v3-${task}.json`);

export const readFixture = (task: TaskName): V3Fixture =>
  JSON.parse(readFileSync(fixturePath(task), 'utf8')) as V3Fixture;

/** The match a log replays to, with the hashes of its engine state and its ledger. */
export function replayHashes(events: readonly StoredEvent[]): {
  match: HostedMatch;
  stateSha256: string;
  ledgerSha256: string;
} {
  const match = replay(events);
  if (!match) throw new Error('empty log');
  return { match, stateSha256: canonicalHash(match.state), ledgerSha256: canonicalHash(match.ledger) };
}
