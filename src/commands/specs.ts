/**
 * The command catalogue's data: names, options, help and access of every command, defined once. Discord
 * subcommands, the Slack/console text grammar, `help` and the reference in docs/COMMANDS.md all render from this list;
 * catalogue.ts pairs each entry with its zod schema, preconditions and handler.
 */
import { POLICY_NAMES } from '../engine/config.js';
import { TASK_NAMES } from '../engine/types.js';
import type { CommandSpec, OptionSpec } from './types.js';

const opt = (
  name: string,
  kind: OptionSpec['kind'],
  required: boolean,
  description: string,
  choices?: readonly string[],
): OptionSpec => (choices ? { name, kind, required, description, choices } : { name, kind, required, description });

const give = opt('give', 'blocks', false, 'Your block ids you give, comma-separated (e.g. b_0_1,b_0_2)');
const want = opt('want', 'blocks', false, 'Block ids of the other lab you want, comma-separated');
const pay = opt('pay', 'number', false, 'Credits you pay on top (default 0)');
const ask = opt('ask', 'number', false, 'Credits you ask the other lab to pay you (sell for credits; not with pay)');
const msg = opt('msg', 'text', false, 'A note that travels with it (max 500 characters)');
const expires = opt('expires', 'integer', false, 'Rounds it stays open after this one, 0–3 (default 2)');
const offerId = (verb: string) => opt('offer', 'offer', true, `Offer id to ${verb} (e.g. o_3)`);

const REST: readonly CommandSpec[] = [
  {
    name: 'new',
    description: 'Open a lobby for a new match in this channel (you become its host)',
    help: "Opens a lobby; seats are claimed with `join`, scripted or LLM seats added with `seat`, then the host runs `start`. On Discord and Slack the match plays in its own thread under a short card in this channel (edited as rounds close), so a channel can hold several matches; `thread:off` (or the channel's setting, `me channel_threads:off`) keeps it in the channel, one match at a time. Commands work in the thread and here. Example: `new task:market_round seed:42 round_seconds:120`.",
    options: [
      opt(
        'task',
        'string',
        false,
        'single_trade (2 labs), market_round (3, default) or coalition_market (4–5)',
        TASK_NAMES,
      ),
      opt(
        'seed',
        'string',
        false,
        "A number or a past match's secret; marks the match seeded by the host (default: a secret)",
      ),
      opt('round_seconds', 'integer', false, 'Round timer in seconds; 0 = a round closes when every seat is done'),
      opt('holdout', 'boolean', false, 'Use the holdout parameters for scripted seats (default false)'),
      opt(
        'votes',
        'string',
        false,
        "Blind votes on pitches after each round, collected for research exports (default: the bot's config)",
        ['on', 'off'],
      ),
      opt(
        'thread',
        'string',
        false,
        'on: play in a thread under a card here; off: in this channel (default: the channel setting)',
        ['on', 'off'],
      ),
    ],
    access: 'anyone',
  },
  {
    name: 'join',
    description: 'Take a seat in the lobby',
    help: 'Claims a free seat (the first free one unless you name it). Example: `join lab:lab_1`.',
    options: [opt('lab', 'lab', false, 'Seat to take (e.g. lab_1); default: the first free seat')],
    access: 'anyone',
  },
  {
    name: 'seat',
    description: 'Give a free seat to a scripted policy or an LLM agent (host)',
    help: 'Host only, in the lobby. Seats nobody claims are scripted at `start` anyway. Example: `seat lab:lab_2 agent:scripted policy:selfish` or `seat lab:lab_1 agent:llm model:gpt-4o-mini`.',
    options: [
      opt('lab', 'lab', true, 'Seat to assign (e.g. lab_2)'),
      opt('agent', 'string', true, 'scripted or llm', ['scripted', 'llm']),
      opt('policy', 'string', false, 'Scripted policy (agent:scripted; default cooperative)', POLICY_NAMES),
      opt('model', 'string', false, 'Model name (agent:llm; default: the configured agent model, ARENA_AGENT_MODEL)'),
    ],
    access: 'host',
  },
  {
    name: 'start',
    description: 'Start the match (host)',
    help: 'Host only. Free seats become scripted; round 1 opens and every person gets a private briefing. Example: `start`.',
    options: [],
    access: 'host',
  },
  {
    name: 'status',
    description: 'Show the match as the channel sees it',
    help: 'The public view: round, labs (reputation, budget band, demand, blocks), offers, coalitions, leaderboard. Example: `status`.',
    options: [],
    access: 'anyone',
  },
  {
    name: 'me',
    description: 'Your private view: budget, jobs, blocks, offers; your reminder settings',
    help: 'Only you see it. Incoming offers come with accept / reject buttons, and "Make an offer" opens the offer builder on Discord and Slack. In a channel without a match, lists your open matches in other channels of this server or workspace. `reminders:off` stops the pings that tell you a round is waiting for you, in every match (`on` brings them back); platform admins set this channel\'s defaults with `channel_threads:off` (new matches stay in the channel instead of a thread under a card) and `channel_reminders:off` (no reminder pings here; a thread counts as its channel). Examples: `me`, `me reminders:off`.',
    options: [
      opt('reminders', 'string', false, 'on or off: pings when a round is waiting for you (every match)', [
        'on',
        'off',
      ]),
      opt('channel_threads', 'string', false, 'Admins: on or off, new matches play in a thread under a card here', [
        'on',
        'off',
      ]),
      opt('channel_reminders', 'string', false, 'Admins: on or off, reminder pings for every match here', [
        'on',
        'off',
      ]),
    ],
    access: 'seat',
  },
  {
    name: 'offer',
    description: 'Offer another lab blocks and/or credits for some of its blocks',
    help: 'Nothing is escrowed; everything is checked again when the other lab accepts. Pay credits with `pay`, or sell for credits with `ask`. During an emergency auction, `offer bid:<credits>` places your sealed bid (only you see it; the highest wins at the round close). Lowball with care: an offer that gives a lab less than half of what it asks of it, and at least 10 credits less, at the public reference price of 5 credits per reliability-weighted GPU-hour (a 4 GPU-h block at 0.90 is worth 18), is exploitative, and a retaliatory lab then refuses every deal with you for that round and the next. Examples: `offer to:lab_1 give:b_0_1 want:b_1_0 pay:5 msg:"swap for your 4-GPU block"`, `offer to:lab_2 give:b_0_2 ask:12`, `offer bid:14`.',
    options: [
      opt('to', 'lab', false, 'Lab the offer goes to (e.g. lab_1); required unless you bid'),
      give,
      want,
      pay,
      ask,
      msg,
      expires,
      opt(
        'bid',
        'number',
        false,
        'A sealed bid (credits) in the emergency auction open this round, instead of an offer',
      ),
    ],
    access: 'seat',
  },
  {
    name: 'accept',
    description: 'Accept an offer made to you',
    help: 'The trade executes at once if both sides still hold what it names. Example: `accept offer:o_3`.',
    options: [offerId('accept')],
    access: 'seat',
  },
  {
    name: 'reject',
    description: 'Reject an offer made to you, or withdraw one you made',
    help: 'Example: `reject offer:o_3`.',
    options: [offerId('reject or withdraw')],
    access: 'seat',
  },
  {
    name: 'counter',
    description: 'Answer an offer made to you with a new offer back',
    help: 'The original offer is marked countered only if the counter is valid. Name your price with `ask`. Examples: `counter offer:o_3 give:b_0_2 want:b_1_0 pay:0 msg:"no cash, better block"`, `counter offer:o_3 give:b_0_2 ask:12 msg:"12 credits and it is yours"`.',
    options: [offerId('counter'), give, want, pay, ask, msg, expires],
    access: 'seat',
  },
  {
    name: 'pitch',
    description: 'Argue publicly why you need capacity; the judge scores pitches at round close',
    help: 'The judge checks each claim (job ids, GPU-hours, deadlines, reliability, offers, blocks) against your facts when you pitch, and shows you its verdict claim by claim at the round close (the channel sees it when the ballot closes); what you do later in the round cannot make a true claim false. The winning pitch\'s bonus is held on the jobs it argues for that still need GPU-hours when you pitch, and paid when they settle, so pitch for a job before you fill it. True, specific claims win; each fabricated claim costs −0.05 judge_argument (at most −0.10 a pitch) and the pitch cannot win, nor can one that gives the judge instructions, repeats itself or pads. Example: `pitch text:"j_0_1 still needs 6 GPU-hours and is due in 2 rounds" job:j_0_1`.',
    options: [
      opt('text', 'text', true, 'The pitch (12–1200 characters); it is public'),
      opt('job', 'jobs', false, 'Your job id(s) it argues for, comma-separated'),
      opt('reply_to', 'lab', false, "Answer this lab's pitch of this round (a counter-pitch)"),
    ],
    access: 'seat',
  },
  {
    name: 'reserve',
    description: 'Earmark your blocks for a job: the channel sees them as reserved, not for sale',
    help: 'Idle reservations cost at the deadline. Example: `reserve blocks:b_0_1,b_0_2 job:j_0_0`.',
    options: [
      opt('blocks', 'blocks', true, 'Your available block ids, comma-separated'),
      opt('job', 'job', false, 'Your job the reservation is for'),
    ],
    access: 'seat',
  },
  {
    name: 'release',
    description: 'Release reserved blocks (releasing a coalition commitment is a breach)',
    help: 'Example: `release blocks:b_0_1`.',
    options: [opt('blocks', 'blocks', true, 'Your reserved (or committed) block ids, comma-separated')],
    access: 'seat',
  },
  {
    name: 'coalition',
    description: 'Propose a coalition, accept one, or commit blocks/credits to it',
    help: 'propose invites labs (`with`); every member must accept (its first commit is its consent); a committed block can be used by the other members for their jobs, not by the lab that committed it (releasing it from an active coalition is a breach). Examples: `coalition action:propose with:lab_1,lab_2 msg:"pool for j_0_1" rounds:3`, `coalition action:accept id:c_1`, `coalition action:commit id:c_1 blocks:b_0_2 pay:5`.',
    options: [
      opt('action', 'string', true, 'propose, accept or commit', ['propose', 'accept', 'commit']),
      opt('with', 'lab', false, 'propose: labs to invite, comma-separated'),
      opt('id', 'coalition', false, 'accept/commit: coalition id (e.g. c_1)'),
      opt('blocks', 'blocks', false, 'accept/commit: your block ids to commit, comma-separated'),
      opt('pay', 'number', false, 'accept/commit: credits to put in escrow'),
      opt('msg', 'text', false, 'propose: the purpose (max 500 characters)'),
      opt('rounds', 'integer', false, 'propose: rounds it lasts, 1–9 (default: to the end)'),
    ],
    access: 'seat',
  },
  {
    name: 'allocate',
    description: 'Run a job on blocks (yours, or committed by a coalition partner)',
    help: 'Hours accumulate; the job completes when they reach its requirement. Blocks must meet its minimum reliability. Example: `allocate job:j_0_0 blocks:b_0_1,b_0_2`.',
    options: [opt('job', 'job', true, 'Your job id'), opt('blocks', 'blocks', true, 'Block ids, comma-separated')],
    access: 'seat',
  },
  {
    name: 'message',
    description: 'Say something to the channel, or privately to one lab',
    help: 'Example: `message text:"anyone selling 4-GPU blocks?"` or `message to:lab_2 text:"deal?"`.',
    options: [
      opt('text', 'text', true, 'The message (max 500 characters)'),
      opt('to', 'lab', false, 'Lab to message privately (default: the channel)'),
    ],
    access: 'seat',
  },
  {
    name: 'done',
    description: 'Say you are done for this round',
    help: 'When every person and agent seat is done (or the timer runs out) the round closes. When nothing is left for you to decide (no job that can still earn from more GPU-hours, no block another lab could buy, no offer, coalition or auction waiting on you) you are marked done automatically and told so; `done undo:true` takes a done back within the round, `done auto:off` turns the automatic done off for this match. Example: `done`.',
    options: [
      opt('undo', 'boolean', false, 'true: take back your done (or the automatic one) for this round'),
      opt(
        'auto',
        'string',
        false,
        'on or off: whether you may be marked done automatically in this match (default on)',
      ),
    ],
    access: 'seat',
  },
  {
    name: 'finish',
    description: 'Leave the match early: your jobs settle now',
    help: 'Your pending jobs settle as at a deadline and your final settlement runs; you cannot act afterwards. Example: `finish`.',
    options: [],
    access: 'seat',
  },
  {
    name: 'end',
    description: 'End the match now (host)',
    help: 'Host only. Stops the match without further settlement. Example: `end`.',
    options: [],
    access: 'host',
  },
  {
    name: 'vote',
    description: 'Compare two pitches blind: which argues better for priority?',
    help: "Anyone in the channel, seated or not (never on a pair with your own seat's pitch). Without options it shows your next pair privately with A / B / tie / both-bad buttons, every lab, job, block and player name in the pitches replaced; the authors and the judge's scores are shown after you vote. One vote per person per pair. Example: `vote` or `vote ballot:v_3 pair:2 choice:a`.",
    options: [
      opt('ballot', 'string', false, "Ballot id (e.g. v_3, the ballot on round 3's pitches); default: the open one"),
      opt('pair', 'integer', false, 'Pair number on the ballot (default: your next pair)'),
      opt('choice', 'string', false, 'a (Pitch A is better), b, tie or both_bad; without it the pair is shown', [
        'a',
        'b',
        'tie',
        'both_bad',
      ]),
    ],
    access: 'anyone',
  },
  {
    name: 'stats',
    description: "People's votes vs the judge in this channel's finished matches",
    help: "Public. Over votes on anonymous ballot pairs: votes, pairs and voters; judge–human agreement with its exact 95% interval and Cohen's kappa (from 20 decisive pairs on); human–human agreement; position bias. `view:usage` (platform admins only, shown to you alone): today's LLM tokens for the deployment, per channel, per host, per model and per match, with the daily budgets and what is left, an estimated cost when token prices are configured, and what LLM seats' self-protection did (private figures redacted, actions refused). Examples: `stats`, `stats view:usage`.",
    options: [
      opt(
        'view',
        'string',
        false,
        "votes (default, public) or usage (today's LLM tokens and budgets; admins only, private)",
        ['votes', 'usage'],
      ),
    ],
    access: 'anyone',
  },
  {
    name: 'leaderboard',
    description: 'Ratings across finished matches: people, models and scripted policies',
    help: "Public. The top 10 by the lower bound of the 95% interval of their Bradley–Terry rating (preliminary below 20 matches), matches played, a chart, every person as one player, and people's win rate against each model. Matches ended early by the host, where a person left before round 1 closed, or whose host chose the seed (practice, unless the operator counts them), do not count. Example: `leaderboard task:market_round kind:people`.",
    options: [
      opt('task', 'string', false, 'Only matches of this task (default: every task)', TASK_NAMES),
      opt('kind', 'string', false, 'people, models (LLM models and scripted policies) or all (default)', [
        'people',
        'models',
        'all',
      ]),
    ],
    access: 'anyone',
  },
  {
    name: 'privacy',
    description: 'Your data: what is stored about you, your consent to research exports, erasure',
    help: 'Private. Shows what the bot stores about you (the matches you sat in, your pitches, messages and votes) and your answer to the data notice. `consent:on` lets your words and votes into research exports under a pseudonym, `consent:off` withdraws (later exports leave them out); `erase:ask` then `erase:confirm` replaces your texts with "[erased]" and deletes your votes in every finished match. Examples: `privacy`, `privacy consent:on`, `privacy erase:ask`.',
    options: [
      opt('consent', 'string', false, 'on (agree to research exports) or off (decline or withdraw)', ['on', 'off']),
      opt('erase', 'string', false, 'ask (see what would be erased) or confirm (erase it)', ['ask', 'confirm']),
    ],
    access: 'anyone',
  },
  {
    name: 'chart',
    description: "The match's standings over the rounds as a chart",
    help: 'Public view only: cumulative reward per seat after each closed round. Example: `chart`.',
    options: [],
    access: 'anyone',
  },
];

const HELP: CommandSpec = {
  name: 'help',
  description: 'List the commands, or explain one',
  help: 'Shows every command, or one command with its options and an example. Example: `help command:offer` (or `help offer`).',
  options: [opt('command', 'string', false, 'Command to explain', ['help', ...REST.map((s) => s.name)])],
  access: 'anyone',
};

/** The catalogue's specs in display order. Names are unique lowercase Discord-safe words. */
export const COMMAND_SPECS: readonly CommandSpec[] = [HELP, ...REST];

/** The spec named `name`, or undefined. */
export function findSpec(name: string): CommandSpec | undefined {
  return COMMAND_SPECS.find((s) => s.name === name);
}
