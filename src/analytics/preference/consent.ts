/**
 * People's words and votes in exports only with their consent (docs/PREFERENCE-DATA.md#consent-and-erasure):
 * `withConsent` keeps a vote only when its voter agreed, a pitch pair only when each pitch's author is not a
 * person or a person who agreed, a demonstration of a person's seat only when that person agreed, and
 * replaces what a person who did not agree wrote inside other seats' observations (their messages and
 * pitches) with {@link WITHHELD}. Scripted and LLM seats need no consent. Pure.
 */
import type { LabId } from '../../engine/types.js';
import type { MatchData } from './dataset.js';

/** What a text of a person without consent reads as inside another seat's observation. */
export const WITHHELD = '[withheld: no consent]';

/** `matches` with only what `granted` (the user ids who agreed) lets into an export. */
export function withConsent(matches: readonly MatchData[], granted: ReadonlySet<string>): MatchData[] {
  return matches.map((m) => {
    const withheld = new Set<LabId>();
    for (const [lab, d] of Object.entries(m.drivers))
      if (d.kind === 'human' && !granted.has(d.userId)) withheld.add(lab);
    const ok = (lab: LabId) => !withheld.has(lab);
    const rounds = m.rounds.map((r) => ({
      ...r,
      pitches: r.pitches.filter((p) => ok(p.lab)),
      pairs: r.pairs.filter((p) => ok(p.a.lab) && ok(p.b.lab)),
      turns: r.turns
        .filter((t) => ok(t.lab))
        .map((t) =>
          withheld.size === 0
            ? t
            : {
                ...t,
                observation: {
                  ...t.observation,
                  messages: t.observation.messages.map((x) => (ok(x.from) ? x : { ...x, text: WITHHELD })),
                  pitches: t.observation.pitches.map((x) => (ok(x.lab) ? x : { ...x, text: WITHHELD })),
                },
              },
        ),
    }));
    return { ...m, rounds, votes: m.votes.filter((v) => granted.has(v.voterId)) };
  });
}

/** The user ids whose recorded answer is `granted`. */
export const grantedIds = (consents: readonly { userId: string; state: string }[]): Set<string> =>
  new Set(consents.filter((c) => c.state === 'granted').map((c) => c.userId));
