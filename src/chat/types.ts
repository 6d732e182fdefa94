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
  modal?: { command: 'pitch'; title: string; fields: { id: string; label: string; long: boolean; required: boolean }[] };
  /** Set when the command failed (bad input, wrong seat, …): the reply is then one private post and nothing changed. */
  error?: CommandError;
}

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
}
