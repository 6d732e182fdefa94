/**
 * A match's event log as a markdown transcript: the lobby, the public posts the channel saw at start and
 * at every round close (rendered by the round host's renderers from the replayed state), and every seat
 * action with the engine's result code. It is an operator's export of the full log: actions of all seats
 * are listed, including private ones (allocations, reservations); private reward posts are not.
 */
import type { Post } from '../chat/types.js';
import { renderRoundClose, renderStart } from './render.js';
import { currentStandings, labName, leaderboardText } from './common.js';
import { applyEvent } from '../match/replay.js';
import type { HostedMatch, StoredEvent } from '../match/types.js';
import { markdownOf, personName, playerText } from '../chat/player-text.js';

/** A post as markdown (title as a heading, fields as bold names; buttons are dropped). */
export function postMarkdown(post: Post): string {
  const out: string[] = [];
  // Player text (src/chat/player-text.ts) is escaped and its blocks quoted: it cannot forge markdown here either.
  if (post.title) out.push(`#### ${markdownOf(post.title).replace(/\n/g, ' ')}`);
  if (post.text) out.push(markdownOf(post.text));
  for (const f of post.fields ?? []) {
    const lines = markdownOf(f.value).split('\n');
    out.push(
      lines.length === 1 ? `**${f.name}:** ${lines[0]}` : [`**${f.name}:**`, ...lines.map((l) => `- ${l}`)].join('\n'),
    );
  }
  return out.join('\n\n');
}

function actionLine(
  m: HostedMatch,
  ev: StoredEvent & { body: { type: 'action' } },
  result: { ok: boolean; code: string; message: string } | undefined,
): string {
  const raw = ev.body.action;
  const obj = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : { raw };
  const { action_type, ...rest } = obj;
  const args = Object.keys(rest).length ? ` ${markdownOf(playerText(JSON.stringify(rest)))}` : '';
  const outcome = result ? `${result.ok ? '✓' : '✗'} ${result.code}: ${result.message}` : 'no result';
  return `- **${labName(m, ev.body.lab)}** \`${typeof action_type === 'string' ? action_type : 'malformed'}\`${args} → ${outcome}`;
}

/** Render the events of one match (ordered by seq, starting at match_created) as markdown. Throws ReplayError on a corrupt log. */
export function renderTranscript(events: readonly StoredEvent[]): string {
  const out: string[] = [];
  let m: HostedMatch | null = null;
  for (const ev of events) {
    const step = applyEvent(m, ev);
    const next = step.match;
    const body = ev.body;
    switch (body.type) {
      case 'match_created':
        out.push(
          `# Match ${next.id}`,
          `${body.settings.task}, seed ${body.settings.seed}${body.settings.hostSeeded ? ' (seeded by the host: practice)' : ''}, ${body.settings.roundSeconds > 0 ? `${body.settings.roundSeconds} s rounds` : 'no round timer'}${body.settings.holdout ? ', holdout' : ''} · ${body.platform} channel \`${body.channelId}\` · host \`${body.hostUserId}\` · ${ev.at}`,
          '## Lobby',
        );
        break;
      case 'seat_claimed':
        out.push(`- ${labName(next, body.lab)} (${body.lab}) claimed by ${markdownOf(personName(body.displayName))}`);
        break;
      case 'seat_assigned':
        out.push(
          `- ${labName(next, body.lab)} (${body.lab}) assigned to ${body.driver.kind === 'llm' ? `LLM ${markdownOf(playerText(body.driver.model))}` : `scripted ${body.driver.policy}`}`,
        );
        break;
      case 'match_started':
        out.push('## Start', ...renderStart(next).public.map(postMarkdown), `## Round 1`);
        break;
      case 'action':
        out.push(actionLine(next, { ...ev, body }, step.result));
        break;
      case 'seat_done':
        out.push(`- ${labName(next, body.lab)} is done${body.auto ? ' (nothing left to decide)' : ''}`);
        break;
      case 'seat_undone':
        out.push(`- ${labName(next, body.lab)} is not done after all`);
        break;
      case 'seat_setting':
        break;
      case 'round_judging':
        out.push(`- Round ${body.round + 1} closed (${body.reason.replace('_', ' ')}): the judge is deciding`);
        break;
      case 'round_closed':
        if (step.report) {
          out.push(...renderRoundClose(next, step.report, body.reason).public.map(postMarkdown));
          if (next.phase !== 'over' && next.state) out.push(`## Round ${next.state.round + 1}`);
        }
        break;
      case 'match_ended':
        out.push(
          '## Ended',
          `Ended by \`${body.by}\` (${body.reason}) at ${ev.at}.`,
          `**Standings:**\n${leaderboardText(next, currentStandings(next))
            .split('\n')
            .map((l) => `- ${l}`)
            .join('\n')}`,
        );
        break;
    }
    m = next;
  }
  return `${out.join('\n\n')}\n`;
}
