/**
 * What the Slack adapter needs from the rest of the app: run a command line (text grammar) or a named
 * command with raw options against the round host, and the caller's match and seat for log context.
 * src/app/slack.ts builds it from the command catalogue and the round host; tests may pass their own. Keeping
 * this seam small keeps the adapter a thin rendering of the catalogue.
 */
import type { Caller, Reply } from '../../commands/types.js';
import type { ThreadSurface } from '../../chat/types.js';
import type { HomeEntry } from '../../commands/home.js';
import type { Post } from '../../chat/types.js';

/** How a command arrived: `match`, the match a pressed button was made for; `surface`, what `new` can do to open a thread. */
export interface SlackRunOpts {
  match?: string;
  surface?: ThreadSurface;
}

/** Match facts used only for log context (never rendered, never private values). */
export interface SlackMatchContext {
  matchId: string;
  /** Lab id of the caller's seat, or null. */
  seat: string | null;
}

/** The command seam of the Slack adapter (see the file comment); built by `catalogueBackend` in src/app/slack.ts. */
export interface SlackBackend {
  /**
   * Run a command written in the text grammar (`/arena` text, button values). `opts.match`: the match a
   * pressed button was made for (it runs only there, src/commands/bound.ts); `opts.surface`: the card thread
   * `new` may open (threads.ts). Never throws for user errors.
   */
  runText(channelId: string, caller: Caller, text: string, opts?: SlackRunOpts): Promise<Reply>;
  /** Run command `name` with raw string options (the pitch modal). Never throws for user errors. */
  runCommand(
    channelId: string,
    caller: Caller,
    name: string,
    options: Record<string, string>,
    opts?: SlackRunOpts,
  ): Promise<Reply>;
  /** The open matches of `userId` (a platform user id) with their private view of each, for the App Home (src/commands/home.ts). */
  home(userId: string): Promise<{ entries: HomeEntry[]; record: Post }>;
  /** The channel's live match seen from `userId`, or null. */
  context(channelId: string, userId: string): Promise<SlackMatchContext | null>;
}
