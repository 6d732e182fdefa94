/**
 * What a command handler gets: the host, where and by whom it was called, and the channel's match as it
 * was when the command arrived (the host re-checks under its lock when the command changes something).
 */
import { observe } from '../engine/index.js';
import type { LabId } from '../engine/types.js';
import type { Observation } from '../engine/views.js';
import type { RoundHost } from '../host/index.js';
import type { HostedMatch } from '../match/types.js';
import { DEFAULT_DATA_POLICY, type DataPolicy } from '../match/data-policy.js';
import type { Caller } from './types.js';
import type { ThreadSurface } from '../chat/types.js';
import { locateMatch } from './locate.js';

/** The part of the round host (src/host) the catalogue uses. */
export type ArenaHost = Pick<
  RoundHost,
  | 'create'
  | 'join'
  | 'assign'
  | 'start'
  | 'act'
  | 'done'
  | 'end'
  | 'current'
  | 'matchById'
  | 'matchesUnder'
  | 'matchesOf'
  | 'seatOf'
  | 'vote'
  | 'eventStore'
> &
  Partial<Pick<RoundHost, 'isAdmin' | 'dataPolicy'>>;

/** The research-data policy the host was started with (config `data.*`), or the default. */
export const dataPolicyOf = (host: Pick<ArenaHost, 'dataPolicy'>): DataPolicy => host.dataPolicy ?? DEFAULT_DATA_POLICY;

/** What a command handler gets (see the file comment); `match` and `lab` are snapshots taken on arrival. */
export interface CommandContext {
  host: ArenaHost;
  /** The channel the match plays in: the called channel, or the match's thread when found from its parent (locate.ts). */
  channelId: string;
  /** The channel the command was typed (or the button pressed) in. */
  calledFrom: string;
  caller: Caller;
  /** Platform of the caller, from its id prefix (`discord:123` → `discord`); `unknown` without a prefix. */
  platform: string;
  /** The channel's lobby/running match, or null. */
  match: HostedMatch | null;
  /** The caller's seat in `match`, or null. */
  lab: LabId | null;
  /** The match a pressed button was made for (src/chat/reply.ts `boundCommand`); null for a typed command. */
  boundTo: string | null;
  /** Several matches of this channel's threads could be meant (`match` is then null; locate.ts). */
  ambiguous: HostedMatch[];
  /** What the platform can do to open a match in a thread (`new`); null: flat posting only (the console). */
  surface: ThreadSurface | null;
}

/** Build the context for one command: finds its match (src/commands/locate.ts) and the caller's seat. */
export async function loadContext(
  host: ArenaHost,
  channelId: string,
  caller: Caller,
  boundTo: string | null = null,
  surface: ThreadSurface | null = null,
): Promise<CommandContext> {
  const found = await locateMatch(host, channelId, caller.userId, boundTo);
  const match = found.match;
  const lab = match ? host.seatOf(match, caller.userId) : null;
  const colon = caller.userId.indexOf(':');
  const platform = colon > 0 ? caller.userId.slice(0, colon) : 'unknown';
  return {
    host,
    channelId: found.channelId,
    calledFrom: channelId,
    caller,
    platform,
    match,
    lab,
    boundTo,
    ambiguous: found.ambiguous,
    surface,
  };
}

/** The caller's observation; only call after the `running` and `hasSeat` preconditions passed. */
export function observationOf(ctx: CommandContext): Observation {
  if (!ctx.match?.state || !ctx.lab)
    throw new Error('observationOf: no running match or no seat (preconditions not checked)');
  return observe(ctx.match.state, ctx.lab);
}

/**
 * The platform user who plays `lab` in person, or null for a scripted or LLM seat (agents read their
 * observation and press no buttons, so posts with buttons go to people only).
 */
export function personOf(m: HostedMatch, lab: LabId): string | null {
  const d = m.drivers[lab];
  return d?.kind === 'human' ? d.userId : null;
}
