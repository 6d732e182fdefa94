/**
 * What the Discord adapter needs from the rest of the app: the catalogue's commands and a way to run
 * them against the round host. src/app/discord.ts builds it from src/commands/catalogue and src/host; tests may
 * pass their own. Keeping this seam small keeps the adapter a thin rendering of the catalogue.
 */
import type { Caller, CommandSpec, OptionKind, Reply } from '../../commands/types.js';
import type { ThreadSurface } from '../../chat/types.js';

/** How a command arrived: from a button or form made for a match, and what the platform can do for `new`. */
export interface RunOpts {
  match?: string;
  surface?: ThreadSurface;
}

/** Raw option values as Discord delivers them (strings for ids and lists, numbers, booleans). */
export type RawOptions = Record<string, string | number | boolean>;

/** One autocomplete suggestion (Discord: name shown ≤ 100 chars, value sent ≤ 100 chars). */
export interface Completion {
  name: string;
  value: string;
}

/** Match facts for log context (match id, the caller's seat); never rendered. */
export interface MatchContext {
  matchId: string;
  /** Lab id of the caller's seat, if the caller holds one. */
  seat: string | null;
  phase: 'lobby' | 'running' | 'over';
  /** The engine's round (0-based) once running, else null. */
  round: number | null;
}

/** The command seam of the Discord adapter (see the file comment); built by `hostBackend` in src/app/discord.ts. */
export interface CommandBackend {
  /** The catalogue (drives /arena subcommands, option kinds for autocomplete, and which to defer). */
  readonly commands: readonly CommandSpec[];
  /**
   * Run `/arena <name>` with typed options. Never throws for user errors (they come back as a Reply).
   * `opts.match`: the match a form was built for (it runs only there); `opts.surface`: what `new` can do to
   * open its match in a thread (threads.ts).
   */
  run(channelId: string, caller: Caller, name: string, options: RawOptions, opts?: RunOpts): Promise<Reply>;
  /**
   * Run a command written in the text grammar (button commands, e.g. `accept offer:o_3`); `opts.match`: the
   * match a pressed button was made for (it runs only there, src/commands/bound.ts).
   */
  runText(channelId: string, caller: Caller, text: string, opts?: RunOpts): Promise<Reply>;
  /**
   * Suggestions (≤ 25) for an id option of `kind`, given everything typed in it so far; for lists
   * (`b_0_1,b_0_`) the suggestions are whole values with the last item completed.
   */
  complete(
    channelId: string,
    caller: Caller,
    kind: OptionKind,
    typed: string,
    where: { command: string; option: string },
  ): Promise<Completion[]>;
  /** The match in this channel, if any, seen from the caller (userId) or from nobody (null). */
  context(channelId: string, userId: string | null): Promise<MatchContext | null>;
}
