/**
 * How the web page names people (config `web.people`): by display name, as the channel does, or by
 * pseudonym (`u_…`, src/analytics/preference/pseudonym.ts). Applied to a folded match before anything
 * renders it, so every renderer of src/present sees the public name only; platform user ids never reach
 * a page either way.
 */
import type { Pseudonymizer } from '../analytics/preference/pseudonym.js';
import type { HostedMatch, SeatDriver } from '../match/types.js';
import type { PlayerRef } from '../analytics/ratings/types.js';

/** Public name of a person from their platform id and display name. */
export type Naming = (userId: string, displayName: string) => string;

/** The naming of config `web.people`: `names` → display names, `pseudonyms` → `pseudo(userId)`. */
export const namingFor = (mode: 'names' | 'pseudonyms', pseudo: Pseudonymizer): Naming =>
  mode === 'names' ? (_id, name) => name : (id) => pseudo(id);

/**
 * `m` with every person's display name replaced by its public name and their user id by an opaque one
 * (the same public name): nothing a page renders from it can show a platform id.
 */
export function publicMatch(m: HostedMatch, naming: Naming): HostedMatch {
  const drivers: Record<string, SeatDriver> = {};
  for (const [lab, d] of Object.entries(m.drivers)) {
    if (d.kind !== 'human') drivers[lab] = d;
    else {
      const name = naming(d.userId, d.displayName);
      drivers[lab] = { kind: 'human', userId: `web:${name}`, displayName: name };
    }
  }
  return { ...m, drivers, hostUserId: 'web:host' };
}

/** Public name of a rated player: a person by the page's naming, a model or policy by its name. */
export function playerName(p: PlayerRef, naming: Naming): string {
  return p.kind === 'person' ? naming(p.id.slice('person:'.length), p.name) : p.name;
}
