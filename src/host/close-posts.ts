/**
 * The posts of a recorded round close (src/host/rounds.ts): the ballots that close and open with it, the
 * round-close summary with the next round's open post (or the final post), and the judge's per-claim
 * verdicts. What they say is src/present's; this only puts them in order.
 */
import type { Reply } from '../chat/types.js';
import type { JudgeDecision } from '../engine/types.js';
import type { RoundReport } from '../engine/views.js';
import type { HostedMatch } from '../match/types.js';
import { renderRoundClose, type CloseReason } from '../present/render.js';
import { roundVerdictReply } from '../present/verdicts.js';
import type { BallotKeeper, BuiltBallot } from '../voting/ballot-host.js';
import { ballotOpenField, voteButton } from '../voting/render.js';

/**
 * Under the match lock, right after `round_closed` was appended (`closed` is the match after it): open and
 * close ballots, then the posts. Returns them and the match after the ballot events.
 */
export async function closePosts(
  ballots: BallotKeeper,
  closed: HostedMatch,
  report: RoundReport,
  reason: CloseReason,
  built: { ballot: BuiltBallot | null; decision: JudgeDecision | null },
): Promise<{ reply: Reply; after: HostedMatch }> {
  const b = await ballots.afterRoundClose(closed, built.ballot);
  const after = b.match;
  const view = b.opened
    ? { pitchesField: ballotOpenField(b.opened), buttons: [voteButton(after.id, b.opened)] }
    : undefined;
  const reply = renderRoundClose(after, report, reason, view);
  // The verdict of the ballots that closed with this round comes right after the round's results.
  reply.public.splice(1, 0, ...b.posts.public);
  // The judge's per-claim check: to each author now; to the channel now, or when this round's ballot closes.
  const verdicts = roundVerdictReply(after, built.decision, b.opened !== null);
  reply.public.splice(1 + b.posts.public.length, 0, ...verdicts.public);
  reply.private.push(...verdicts.private);
  return { reply, after };
}
