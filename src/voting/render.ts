/**
 * Posts of ballots. Blindness: while a ballot is open no post names a pitch's author next to
 * "Pitch A/B" or shows the judge's scores of its round; a voter sees the authors and the judge's scores
 * of a pair privately right after voting on it, the channel sees everything when the ballot closes.
 */
import { pitchOf, type Ballot, type BallotPitch, type ShownPair, type VoteChoice } from './ballots/index.js';
import { button } from '../chat/reply.js';
import type { Button, Post } from '../chat/types.js';
import type { JudgeDecision } from '../engine/types.js';
import type { VoteRecord } from '../store/types.js';
import { labName, seatLabel } from '../present/common.js';
import { judgeText } from '../present/render.js';
import type { HostedMatch } from '../match/types.js';
import { playerBlock } from '../chat/player-text.js';

const CLOSE_TEXT: Record<NonNullable<Ballot['closed']>['reason'], string> = {
  next_round: 'the next round closed',
  timer: 'its time ran out',
  match_ended: 'the match ended',
  host: 'the host closed it',
};

const CHOICE_TEXT: Record<VoteChoice, string> = {
  a: 'Pitch A is better',
  b: 'Pitch B is better',
  tie: 'a tie',
  both_bad: 'both are bad',
};

/** Text of a pitch as a quote (every line prefixed). */
const quote = (text: string) => playerBlock(text);

/** The `vote` command text of a button. */
export const voteCommand = (ballotId: string, pair?: number, choice?: VoteChoice) =>
  `vote ballot:${ballotId}${pair === undefined ? '' : ` pair:${pair}`}${choice === undefined ? '' : ` choice:${choice}`}`;

/** The four choice buttons of a pair of match `matchId` (Discord custom_id `arena:@m_0123456789ab vote ballot:v_3 pair:12 choice:both_bad` = 58 characters). */
export function choiceButtons(matchId: string, ballotId: string, pair: number): Button[] {
  return [
    button(matchId, 'A is better', voteCommand(ballotId, pair, 'a'), 'primary'),
    button(matchId, 'B is better', voteCommand(ballotId, pair, 'b'), 'primary'),
    button(matchId, 'Tie', voteCommand(ballotId, pair, 'tie')),
    button(matchId, 'Both bad', voteCommand(ballotId, pair, 'both_bad'), 'danger'),
  ];
}

/** The "Pitches" field of a round-close post whose ballot is open: no scores, an invitation to vote. */
export function ballotOpenField(b: Ballot): { name: string; value: string } {
  const until = b.closesAt === null ? 'when the next round closes' : `at ${new Date(b.closesAt).toISOString()}`;
  return {
    name: 'Pitches',
    value:
      `${b.pitches.length} pitches were judged; the judge's scores stay hidden while ballot ${b.id} is open (it closes ${until}). ` +
      `Anyone in the channel can compare them blind, two at a time: \`vote\` (${b.pairs.length} pair${b.pairs.length === 1 ? '' : 's'}; not a pair with your own pitch). ` +
      'Pitches and votes are collected for research exports.',
  };
}

/** The button under a round-close post of match `matchId` that opens the caller's next pair. */
export const voteButton = (matchId: string, b: Ballot): Button =>
  button(matchId, `Vote on round ${b.round + 1} pitches`, voteCommand(b.id), 'primary');

/** One pair as the voter sees it (private): both texts, authors hidden, with the choice buttons. */
export function renderPair(matchId: string, b: Ballot, shown: ShownPair, left: number): Post {
  return {
    title: `Ballot ${b.id} · pair ${shown.pair} of ${b.pairs.length} (round ${b.round + 1} pitches)`,
    text: [
      "Which pitch argues better for priority? Authors are hidden (names of labs, jobs, blocks and players are replaced); you see who wrote them and the judge's scores after you vote.",
      '',
      '**Pitch A**',
      quote(shown.blindA.text),
      '',
      '**Pitch B**',
      quote(shown.blindB.text),
      '',
      `${left} pair${left === 1 ? '' : 's'} left for you on this ballot, this one included. Text: \`${voteCommand(b.id, shown.pair, 'a')}\` (or b, tie, both_bad).`,
    ].join('\n'),
    buttons: choiceButtons(matchId, b.id, shown.pair),
  };
}

/** A judge's line for one pitch: score and parts, or why there is none. */
function scoreLine(m: HostedMatch, d: JudgeDecision | null, p: BallotPitch): string {
  const s = d?.scores.find((x) => x.lab === p.lab);
  if (!s) return `${labName(m, p.lab)}: not scored`;
  const won = d?.winner === p.lab ? ' 🏆 won the round' : '';
  return `${labName(m, p.lab)}: ${s.score.toFixed(2)} (need ${s.parts.need.toFixed(2)} · verified ${s.parts.verifiedClaims.toFixed(2)} · fabricated ${s.parts.fabricatedClaims.toFixed(2)} · specificity ${s.parts.specificity.toFixed(2)})${won}`;
}

/** After a vote (private): what was chosen, who wrote each pitch, and the judge's scores of the two. */
export function renderVoteRecorded(m: HostedMatch, b: Ballot, shown: ShownPair, choice: VoteChoice): Post {
  const judgeId = b.judge?.judgeId ?? 'the judge';
  return {
    title: `✓ Vote recorded: ballot ${b.id}, pair ${shown.pair}`,
    text: [
      `You said ${CHOICE_TEXT[choice]}. Pitch A was ${seatLabel(m, shown.shownA.lab)}, Pitch B was ${seatLabel(m, shown.shownB.lab)}.`,
      `Judge (${judgeId}): ${scoreLine(m, b.judge, shown.shownA)}; ${scoreLine(m, b.judge, shown.shownB)}.`,
    ].join('\n'),
  };
}

/** When the voter has nothing left to judge on the ballot. */
export function renderNothingLeft(b: Ballot, eligible: number): Post {
  return {
    title: `Ballot ${b.id}: nothing left for you`,
    text:
      eligible === 0
        ? `Every pair of ballot ${b.id} holds your own seat's pitch, so you cannot vote on it.`
        : `You have judged every pair of ballot ${b.id} open to you (${eligible}). Thanks! The judge's scores are posted when it closes.`,
  };
}

/** Tally of one pair's votes in canonical order. */
function tally(votes: readonly VoteRecord[]): Record<VoteChoice, number> {
  const t: Record<VoteChoice, number> = { a: 0, b: 0, tie: 0, both_bad: 0 };
  for (const v of votes) t[v.choice]++;
  return t;
}

/** The channel's post when a ballot closes: the judge's scores of the round and the people's votes per pair. */
export function renderBallotClosed(m: HostedMatch, b: Ballot, votes: readonly VoteRecord[]): Post {
  const voters = new Set(votes.map((v) => v.voterId));
  const seated = new Set(votes.filter((v) => v.seated).map((v) => v.voterId));
  const reason = b.closed ? CLOSE_TEXT[b.closed.reason] : 'it closed';
  const pairs = b.pairs.map(([a, c], i) => {
    const own = votes.filter((v) => v.pair === i + 1);
    const t = tally(own);
    const na = labName(m, pitchOf(b, a).lab);
    const nc = labName(m, pitchOf(b, c).lab);
    return `${i + 1}. ${na} vs ${nc}: ${own.length === 0 ? 'no votes' : `${na} ${t.a} · ${nc} ${t.b} · tie ${t.tie} · both bad ${t.both_bad}`}`;
  });
  return {
    title: `Ballot ${b.id} closed (round ${b.round + 1} pitches): ${reason}`,
    text: `${votes.length} vote${votes.length === 1 ? '' : 's'} from ${voters.size} ${voters.size === 1 ? 'person' : 'people'} (${seated.size} seated, ${voters.size - seated.size} spectators).`,
    fields: [
      { name: 'Judge', value: judgeText(m, b.judge) ?? 'The judge scored no pitch of this round.' },
      { name: 'People', value: pairs.join('\n') },
    ],
  };
}
