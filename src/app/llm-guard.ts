/**
 * Where the self-protection of LLM seats is visible to the operator (src/agents/guard.ts, redact.ts): each
 * seat turn's note goes to the log (debug; a warn line when private figures were redacted or actions
 * refused, with the counts, never the text) and, with a store, into the day's `llm_guard` sums that
 * `stats view:usage` shows.
 */
import type { Logger } from 'pino';
import type { AgentNote } from '../agents/seat-agent.js';
import type { EventStore } from '../store/types.js';

/** The `onNote` of the LLM seat agents: logs each turn and counts what the guard and the redaction did. */
export function agentNoteSink(
  logger: Logger | undefined,
  store: (Pick<EventStore, 'addLlmGuard'> & { channelOf(matchId: string): Promise<string | null> }) | undefined,
  now: () => Date = () => new Date(),
): ((note: AgentNote) => void) | undefined {
  if (!logger && !store) return undefined;
  return (note) => {
    logger?.debug({ agent: note }, 'llm agent turn');
    if (note.redactions === 0 && note.refused === 0) return;
    const counts = {
      matchId: note.matchId,
      lab: note.lab,
      round: note.round,
      model: note.model,
      redactions: note.redactions,
      refused: note.refused,
    };
    logger?.warn(
      { agent: counts },
      `llm seat protected: ${note.redactions} private figure(s) redacted, ${note.refused} action(s) refused (gave value away)`,
    );
    if (!store) return;
    const day = now().toISOString().slice(0, 10);
    void (async () => {
      const channelId = await store.channelOf(note.matchId);
      await store.addLlmGuard({
        day,
        channelId,
        matchId: note.matchId,
        model: note.model,
        redactions: note.redactions,
        refusals: note.refused,
      });
    })().catch((err: unknown) =>
      logger?.error(
        { err: err instanceof Error ? err.message : String(err), matchId: note.matchId },
        'llm guard counts could not be stored',
      ),
    );
  };
}
