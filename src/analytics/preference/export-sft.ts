/**
 * Demonstration rows (`npm run export -- --sft`): for each seat and round, the seat's own observation
 * (what it saw before its first action of the round; a scripted seat's at its close-of-round turn) as the
 * prompt and its actions, as the action JSON array, as the completion. Only actions the engine accepted
 * are kept (an invalid action is not a demonstration); a turn with none is skipped. Pure.
 */
import type { MatchData } from './dataset.js';
import { authorKind } from './dataset.js';
import { OpenAiSftRowSchema, TrlSftRowSchema, type SftFormat } from './formats.js';
import type { Pseudonymize } from './export-votes.js';
import { turnPrompt } from './prompt.js';
import { DEFAULT_SELECTION, selectMatchData, type VoteSelection } from './selection.js';

/** Author filter of {@link sftRows}: the driver kind of the seat. */
export type AuthorFilter = 'person' | 'llm' | 'scripted';

/** Options of {@link sftRows}. */
export interface SftExportOptions {
  format: SftFormat;
  author?: AuthorFilter;
  pseudonymize: Pseudonymize;
  /** Which matches (selection.ts): no host-seeded match by default. */
  selection?: VoteSelection;
}

/** Rows of `matches` in `format`, each parsed with its schema (a failing row throws: a bug). */
export function sftRows(all: readonly MatchData[], opts: SftExportOptions): unknown[] {
  const out: unknown[] = [];
  for (const m of selectMatchData(all, opts.selection ?? DEFAULT_SELECTION)) {
    for (const r of m.rounds) {
      for (const turn of r.turns) {
        const driver = m.drivers[turn.lab];
        const kind = authorKind(driver);
        if (opts.author && kind.split(':')[0] !== opts.author) continue;
        const actions = turn.actions.filter((a) => a.ok).map((a) => a.action);
        if (actions.length === 0) continue;
        const { system, user } = turnPrompt(turn.observation);
        const messages = [
          { role: 'system', content: system },
          { role: 'user', content: user },
          { role: 'assistant', content: JSON.stringify(actions) },
        ];
        out.push(
          opts.format === 'trl'
            ? TrlSftRowSchema.parse({
                messages,
                author: kind,
                author_id: driver?.kind === 'human' ? opts.pseudonymize(driver.userId) : null,
              })
            : OpenAiSftRowSchema.parse({ messages }),
        );
      }
    }
  }
  return out;
}
