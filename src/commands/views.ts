/**
 * The `me` (private observation) and `status` (public view / lobby) posts. `me` shows only the caller's own
 * observation; `status` only the engine's public view (docs/RULES.md §0), so no private value of any seat
 * reaches the channel.
 */
import { labIdsFor, observe, publicView } from '../engine/index.js';
import type { LabId } from '../engine/types.js';
import { categoryTotals, entryLine, fmtAmount, SCORE_FORMULA } from '../present/ledger.js';
import { ledgerSum, seatEntries } from '../match/ledger.js';
import { REWARD_WEIGHTS } from '../engine/reward.js';
import { currentStandings, fmtReward, labName, leaderboardText, roundLabel, seatLabel } from '../present/common.js';
import { HOST_SEEDED } from '../present/render.js';
import { openDecisions } from '../match/idle.js';
import { pendingSeats } from '../match/replay.js';
import type { HostedMatch } from '../match/types.js';
import { blockLine, coalitionLine, fieldValue, idList, jobLine, offerLine } from './format.js';
import { formatCommand } from './grammar.js';
import { button } from '../chat/reply.js';
import type { Button, Post } from './types.js';
import { playerText } from '../chat/player-text.js';

/** The caller's private view: budget, jobs, blocks, offers (accept/reject buttons per incoming one), coalitions, direct messages. */
export function renderMe(m: HostedMatch, lab: LabId): Post {
  if (!m.state)
    return {
      title: `You hold ${labName(m, lab)} (${lab})`,
      text: 'The match has not started yet; your jobs and blocks are dealt at `start`.',
    };
  const obs = observe(m.state, lab);
  const s = obs.self;
  const incoming = obs.offers.filter((o) => o.to === lab);
  const outgoing = obs.offers.filter((o) => o.from === lab);
  const buttons: Button[] = [];
  for (const o of incoming.slice(0, 4)) {
    buttons.push(button(m.id, `Accept ${o.id}`, formatCommand('accept', { offer: o.id }), 'success'));
    buttons.push(button(m.id, `Reject ${o.id}`, formatCommand('reject', { offer: o.id }), 'danger'));
  }
  for (const c of obs.myCoalitions
    .filter((x) => x.status === 'proposed' && !x.commitments[lab]?.consented)
    .slice(0, 2)) {
    buttons.push(button(m.id, `Join ${c.id}`, formatCommand('coalition', { action: 'accept', id: c.id }), 'primary'));
  }
  if (!s.finished && !obs.over) {
    // The offer builder (src/commands/builder.ts): a form on Discord and Slack, the typed syntax elsewhere.
    buttons.push(button(m.id, 'Make an offer', 'offer'));
    buttons.push(button(m.id, m.done.includes(lab) ? 'Done ✓' : 'Done for this round', 'done', 'primary'));
  }
  const direct = obs.messages
    .filter((x) => x.to !== null)
    .slice(-5)
    .map((x) => `${labName(m, x.from)} → ${labName(m, x.to ?? '')}: ${playerText(x.text)}`);
  const fields = [
    { name: 'Jobs', value: fieldValue(s.jobs.map(jobLine), 'none') },
    { name: 'Blocks', value: fieldValue(s.blocks.map(blockLine), 'none') },
    {
      name: 'Offers to you',
      value: fieldValue(
        incoming.map((o) => offerLine(m, o)),
        'none',
      ),
    },
    {
      name: 'Your open offers',
      value: fieldValue(
        outgoing.map((o) => offerLine(m, o)),
        'none',
      ),
    },
  ];
  if (obs.myCoalitions.length)
    fields.push({ name: 'Your coalitions', value: fieldValue(obs.myCoalitions.map((c) => coalitionLine(m, c))) });
  if (direct.length) fields.push({ name: 'Direct messages', value: fieldValue(direct) });
  if (!s.finished && !obs.over) {
    // What keeps the round open for this seat (src/match/idle.ts): with nothing left, the host marks it done.
    const open = openDecisions(m.state, lab);
    const auto = m.autoDoneOff?.includes(lab)
      ? 'automatic done is off for you (`done auto:on`)'
      : m.undone?.includes(lab)
        ? 'you took your done back this round, so type `done` when you are ready'
        : 'you will be marked done automatically (`done auto:off` to keep typing `done`)';
    fields.push({ name: 'Left to decide this round', value: open.length ? fieldValue(open) : `nothing: ${auto}` });
  }
  fields.push({ name: 'Your reward ledger', value: ledgerField(m, lab) });
  const status = s.finished
    ? 'finished'
    : m.done.includes(lab)
      ? 'done for this round'
      : `${s.actionsLeftThisRound} actions left this round`;
  return {
    title: `${s.publicName} (${lab}) — round ${roundLabel(obs.round, obs.maxRounds)}, only you see this`,
    text: `Budget ${s.budget.toFixed(2)} credits · escrow ${s.escrow.toFixed(2)} · reputation ${s.reputation.toFixed(2)} · reward ${fmtReward(obs.cumulativeReward)} · ${status}`,
    fields,
    buttons,
  };
}

/** A chat field holds 1,024 characters (Discord's limit): `me` shows the newest entries that fit. */
const ME_LEDGER_CHARS = 1000;

/** The seat's running ledger: totals by category, its newest non-zero entries, and the formula. */
function ledgerField(m: HostedMatch, lab: LabId): string {
  const mine = seatEntries(m.ledger, lab).filter((e) => e.amount !== 0);
  // Reward other seats' actions earned this seat this round: paid at the round close (RULES §2 step 8).
  const pending = (m.ledger?.pending[lab] ?? []).map(
    (e) =>
      `pending ${entryLine(m, { ...e, amount: e.column === 'cap' ? 0 : Math.round(REWARD_WEIGHTS[e.column] * e.raw * 1e4) / 1e4 })} (paid at the round close)`,
  );
  if (mine.length === 0)
    return [pending.length ? 'No reward paid yet.' : 'No reward yet.', ...pending, SCORE_FORMULA].join('\n');
  const head = `Total ${fmtAmount(ledgerSum(mine))} = ${categoryTotals(mine)
    .map((c) => `${c.label} ${fmtAmount(c.amount)}`)
    .join(', ')}`;
  let room = ME_LEDGER_CHARS - head.length - SCORE_FORMULA.length - 60;
  const shown: string[] = [];
  for (let i = mine.length - 1; i >= 0; i--) {
    const line = `R${mine[i]!.round + 1} ${entryLine(m, mine[i]!)}`;
    if (line.length + 1 > room) break;
    room -= line.length + 1;
    shown.unshift(line);
  }
  const older = mine.length - shown.length;
  return [
    head,
    ...(older > 0 ? [`(${older} earlier entries are in the total)`] : []),
    ...shown,
    ...pending,
    SCORE_FORMULA,
  ].join('\n');
}

/** The lobby: settings and who holds which seat, with Join / Start buttons. */
export function renderLobby(m: HostedMatch): Post {
  const labs = labIdsFor(m.settings.task, m.settings.seed);
  const timer = m.settings.roundSeconds > 0 ? `${m.settings.roundSeconds} s rounds` : 'no round timer';
  return {
    // The seed determines every private value: public posts reveal it only when the match is over.
    title: `Lobby: ${m.settings.task} (${labs.length} seats, ${timer})`,
    text: `Take a seat with \`join\` (or \`join lab:lab_1\`); the host adds scripted/LLM seats with \`seat\` and starts with \`start\`. Free seats are scripted at start.${m.settings.hostSeeded ? `\n${HOST_SEEDED}` : ''}`,
    fields: [{ name: 'Seats', value: labs.map((l) => `${l}: ${seatLabel(m, l)}`).join('\n') }],
    buttons: [button(m.id, 'Join', 'join', 'primary'), button(m.id, 'Start (host)', 'start', 'success')],
  };
}

/** The channel's view of a running (or just finished) match. */
export function renderStatus(m: HostedMatch): Post {
  if (!m.state) return renderLobby(m);
  const v = publicView(m.state);
  const labs = v.labs.map(
    (l) =>
      `${seatLabel(m, l.id)} \`${l.id}\`: rep ${l.reputation.toFixed(2)}, budget ${l.budgetBand}, demand ${l.demandLevel}, reward ${fmtReward(l.cumulativeReward)}${l.finished ? ', finished' : ''}`,
  );
  const live = v.blocks.filter((b) => b.status !== 'used' && b.status !== 'failed');
  const blocks = v.labs.map(
    (l) =>
      `${labName(m, l.id)}: ${idList(
        live
          .filter((b) => b.owner === l.id)
          .map(
            (b) =>
              `${b.id} ${b.gpuCount}×${b.duration} rel ${b.reliability.toFixed(2)}${b.status === 'available' ? '' : ` (${b.status})`}`,
          ),
        'none',
      )}`,
  );
  const fields = [
    { name: 'Labs', value: fieldValue(labs) },
    { name: 'Blocks', value: fieldValue(blocks) },
    {
      name: 'Open offers',
      value: fieldValue(
        v.offers.map((o) => offerLine(m, o)),
        'none',
      ),
    },
  ];
  if (v.coalitions.length)
    fields.push({ name: 'Coalitions', value: fieldValue(v.coalitions.map((c) => coalitionLine(m, c))) });
  if (v.pitches.length)
    fields.push({
      name: 'Pitches this round',
      value: fieldValue(v.pitches.map((p) => `${labName(m, p.lab)}: ${playerText(p.text)}`)),
    });
  if (v.shockHistory.length)
    fields.push({
      name: 'Shocks',
      value: fieldValue(
        v.shockHistory.map(
          (x) =>
            `round ${x.round + 1}: ${x.kind}${x.affectedLabs.length ? ` (${x.affectedLabs.map((l) => labName(m, l)).join(', ')})` : ''}`,
        ),
      ),
    });
  const waiting = pendingSeats(m);
  if (!v.over && !m.judging && waiting.length)
    fields.push({ name: 'Waiting for', value: waiting.map((l) => seatLabel(m, l)).join(', ') });
  fields.push({ name: 'Leaderboard', value: leaderboardText(m, currentStandings(m)) });
  const title = v.over
    ? `${v.task} (seed ${v.seed}) — over`
    : `${v.task} — round ${roundLabel(v.round, v.maxRounds)}${m.judging ? ' (closed: the judge is deciding)' : ''}`;
  const judging = m.judging
    ? ` Round ${v.round + 1} is closed and its pitches are with the judge; the results follow as soon as it has decided.`
    : '';
  const buttons = v.over
    ? []
    : m.judging
      ? [button(m.id, 'My view', 'me')]
      : [button(m.id, 'My view', 'me'), button(m.id, 'Done for this round', 'done', 'primary')];
  return { title, text: `Public view; \`me\` shows your private one.${judging}`, fields, buttons };
}
