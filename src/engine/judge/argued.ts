/**
 * Which jobs a winning pitch argued for, so its judge bonus can be held on them (docs/RULES.md §6.5).
 * Pure; reads the state only.
 */
import type { JobId, MatchState, Pitch } from '../types.js';
import { claimsOf } from './claims.js';
import { factsForPitch, openForPitch } from './snapshot.js';
import { checkClaims } from './verify.js';

/** The jobs a pitch argued for: `named` = its own job ids it named; `open` = those (or, naming none, the argued jobs of §6.2) still short of hours. */
export interface ArguedJobs {
  /** Own job ids named by the pitch (structured `jobIds`, then ids in the text), in that order, once each. */
  named: JobId[];
  /**
   * Argued jobs that can hold a share of the bonus: pending with unmet hours when the pitch was made
   * (rules v4; allocating to them afterwards keeps them), or still short of hours at the close (v3).
   */
  open: JobId[];
}

/** Append `id` to `named` if it is a job of the pitch's seat not named yet. */
function addNamed(state: MatchState, pitch: Pitch, named: JobId[], id: JobId): void {
  const j = Object.hasOwn(state.jobs, id) ? state.jobs[id] : undefined;
  if (j !== undefined && j.owner === pitch.lab && !named.includes(id)) named.push(id);
}

/**
 * The jobs `pitch` argued for, against `state` (the state the judge saw). A pitch that names its own jobs
 * argues for exactly those (the open ones among them; none open: the work it argued for was already
 * covered). A pitch that names none argues for the jobs its verified claims matched, else all of its
 * seat's open jobs (as the rule judge's need, §6.2).
 */
export function arguedJobs(state: MatchState, pitch: Pitch): ArguedJobs {
  const claims = claimsOf(pitch.text);
  const named: JobId[] = [];
  // Loops rather than a local `add` closure: tsx (bench, CLIs) names every closure it creates with a
  // defineProperty call. Indexed: claim lists are frozen (for…of is slow there).
  for (let i = 0; i < pitch.jobIds.length; i++) addNamed(state, pitch, named, pitch.jobIds[i]!);
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    if (c.kind === 'job') addNamed(state, pitch, named, c.id);
  }
  if (named.length > 0) return { named, open: named.filter((id) => openForPitch(state, pitch, id)) };
  const v = checkClaims(factsForPitch(state, pitch), claims, []);
  return { named, open: v.argued.map((j) => j.id).filter((id) => openForPitch(state, pitch, id)) };
}
