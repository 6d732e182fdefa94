/** Public names of a match's seats, used both to read input ("B", "Lab B") and to write posts. */
import type { LabId } from '../engine/types.js';
import type { HostedMatch } from './types.js';

/** "Lab A" for lab_0, …; from the engine state when started, else from the id. */
export function labName(m: HostedMatch, lab: LabId): string {
  const fromState = m.state?.labs[lab]?.publicName;
  if (fromState) return fromState;
  const i = Number(/^lab_(\d+)$/.exec(lab)?.[1]);
  return Number.isInteger(i) && i < 26 ? `Lab ${String.fromCharCode(65 + i)}` : lab;
}
