/**
 * Platform-neutral replies. Every command handler and every round close returns a {@link Reply}; the
 * console, Discord and Slack adapters only render it (Discord: ephemeral = flags 64; Slack:
 * chat.postEphemeral / response_url). This module sits below the command catalogue and the round host,
 * which both produce replies.
 */

/**
 * A clickable button. `command` is the catalogue text it runs when clicked, e.g. `accept offer:o_3`, in
 * the match it was made for: platforms carry both ({@link boundCommand}), and a press in another channel
 * or after that match ended is refused and changes nothing (src/commands/run.ts).
 */
export interface Button {
  /** Stable id for platforms (Discord custom_id, Slack action_id): `arena:<bound command text>`. */
  id: string;
  label: string;
  command: string;
  style: 'primary' | 'secondary' | 'success' | 'danger';
  /** The match the button acts in (`m_…`). */
  matchId: string;
}

/** One post. Text is plain markdown-ish (bold with **, code with backticks) that every platform renders. */
export interface Post {
  /** Title line, shown bold / as a header. */
  title?: string;
  text: string;
  buttons?: Button[];
  /** Structured fields (name → value), rendered as a list / embed fields. */
  fields?: { name: string; value: string }[];
  /** Charts attached to the post (public posts only), rendered to PNG at delivery by src/analytics/charts; a chart that fails is left out, never the post. */
  charts?: ChartRequest[];
  /**
   * People this post pings (platform user ids, `discord:123`, `slack:U1`): each is mentioned by name, and only
   * they are notified (Discord `allowed_mentions.users`; nothing a player wrote can ping anyone). Public posts only.
   */
  mentions?: string[];
}

/**
 * A chart as plain data: which builder of src/analytics/charts draws it, its title and its data rows
 * (each kind's row shape is parsed there with zod). Kinds: `standings` (cumulative reward per seat over
 * rounds), `breakdown` (reward parts per seat, stacked), `ratings` (ratings with interval bars), `eval`
 * (mean ± standard error per policy and task), `preference` (agreement, kappa, position bias).
 */
export interface ChartRequest {
  kind: 'standings' | 'breakdown' | 'ratings' | 'eval' | 'preference';
  title: string;
  rows: Record<string, string | number | null>[];
  /** File name stem of the PNG (letters, digits, `-`, `_`); default: the kind. */
  name?: string;
}

/** A private post for one user (Discord ephemeral, Slack ephemeral, console "private" style). */
export interface PrivatePost extends Post {
  /** Platform user id of the recipient. */
  userId: string;
  /**
   * How many of the reply's public posts come before this one, set by `mergeReplies` so a single stream
   * (the console) can show a command's private answer before the round closes it set off. Absent: after all.
   */
  afterPublic?: number;
}

/** What a command (or a round close) produces. */
export interface Reply {
  /** Posts to the channel, visible to everyone. */
  public: Post[];
  /** Posts to one person each. */
  private: PrivatePost[];
  /** Ask the platform to open a form (Discord modal / Slack modal) for this command. */
  modal?: {
    command: 'pitch';
    title: string;
    fields: { id: string; label: string; long: boolean; required: boolean }[];
  };
  /** Ask the platform to open the offer builder (src/commands/builder.ts) for the caller. */
  form?: OfferForm;
  /**
   * Where the public posts (and other people's private posts) belong when that is not the channel the command
   * came from: the match's own thread, for a command typed in its parent channel or a `new` that opened one.
   */
  channelId?: string;
  /** The match's card in the parent channel, to edit in place (a thread match's round closes and result). */
  card?: CardUpdate;
  /** Set when the command failed (bad input, wrong seat, …): the reply is then one private post and nothing changed. */
  error?: CommandError;
}

/**
 * The card of a match that plays in its own thread: one short post in the parent channel (the thread's
 * starter on Discord, its parent message on Slack), edited in place as the match goes on, never re-posted.
 */
export interface CardUpdate {
  matchId: string;
  /** The parent channel the card is in. */
  channelId: string;
  /** The card's message (Discord message id; Slack `ts`). */
  messageId: string;
  /** The match's thread (its channel id as the platform names it). */
  threadId: string;
  post: Post;
  /** The match is over: close the thread (Discord archives it; Slack threads have no such state). */
  final: boolean;
}

/** One choice of a builder menu: the id sent back (`value`) and what the person reads. */
export interface FormChoice {
  value: string;
  label: string;
  /** A second line (Discord option description, Slack option description). */
  detail?: string;
}

/**
 * The offer builder: menus built from the caller's own view, so an offer (or a counter) is made by picking,
 * not by typing ids. Submitting it runs the catalogue's `offer` (or `counter offer:<id>`) with the picked
 * values as options: the same validation, errors and log entry as the typed command.
 */
export interface OfferForm {
  kind: 'offer' | 'counter';
  /** The match it was built for: a submit is bound to it like a button (src/commands/bound.ts). */
  matchId: string;
  /** `counter`: the offer answered (its sender is the only target). */
  offerId?: string;
  title: string;
  /** Labs the offer may go to (one, fixed, for a counter). */
  targets: FormChoice[];
  /** The caller's blocks it may give (live: available or reserved). */
  give: FormChoice[];
  /** Each target's blocks it may ask for, by lab id. */
  want: Record<string, FormChoice[]>;
  /** Ids left out of a menu because it holds at most {@link FORM_MENU_MAX} choices (listed, for the typed command). */
  truncated?: string[];
  /** Pre-filled values (a counter starts from the offer mirrored). */
  draft: OfferDraft;
  /** The caller's budget, for the credits field's hint. */
  budget: number;
}

/** What an offer builder holds so far. */
export interface OfferDraft {
  to?: string;
  give: string[];
  want: string[];
  pay?: number;
  ask?: number;
  msg?: string;
}

/** Most choices one builder menu lists (Discord's limit is 25 options per select; Slack's 100). */
export const FORM_MENU_MAX = 25;

/** A coded, user-facing error: which option, what was expected, the valid values. */
export interface CommandError {
  code: string;
  message: string;
  option?: string;
  expected?: string;
  validValues?: string[];
}

/** Who is calling, in platform-neutral terms. */
export interface Caller {
  /** Platform-qualified user id, e.g. `discord:123`, `slack:U123`, `console:you`. */
  userId: string;
  displayName: string;
  /** True when the platform says this user may administer matches (Manage Server / configured role). */
  isAdmin: boolean;
  /**
   * When the call comes from a thread (Discord), the channel the thread belongs to: a match opened there
   * counts against that channel's daily LLM budget, so a host cannot multiply it by opening threads.
   */
  parentChannelId?: string;
  /** The server (Discord guild) or workspace (Slack team) the call comes from, when the platform says. */
  spaceId?: string;
}

/**
 * What a chat platform can do for a `new` that opens its match in a thread (Discord: a public thread on the
 * card message; Slack: the card's thread). Passed by the adapter with the command; absent = flat posting.
 */
export interface ThreadSurface {
  /** Matches open in their own thread unless `new thread:off` or the channel's setting says otherwise. */
  threadsByDefault: boolean;
  /** The call came from inside a thread (a thread cannot hold another): the match plays there, flat. */
  inThread: boolean;
  /**
   * Post `card` (a placeholder, edited once the match exists) in `channelId` and open a thread on it named
   * `name`. Resolves to the thread's channel id and the card's message id, or null when the platform refused.
   */
  openThread(channelId: string, card: Post, name: string): Promise<{ threadId: string; cardMessageId: string } | null>;
}
