/** Helpers of the Discord end-to-end tests: typed dispatches that wait for the bot, and what reached the channel. */
import type { DiscordBot } from '../../../src/adapters/discord/bot.js';
import { after, before } from 'node:test';
import { pino } from 'pino';
import {
  DiscordEmulator,
  type Dispatched,
  type EmulatorUser,
  type Place,
  type RecordedRequest,
} from '../../emulators/discord.js';
import { startDiscord, type DiscordRuntime, type StartDiscordOptions } from '../../../src/app/discord.js';
import { openStore, type EventStore } from '../../../src/store/index.js';

type Json = Record<string, unknown>;

/** Discord option type of a test value: integer 4, number 10, boolean 5, string 3. */
function optionType(v: string | number | boolean): number {
  if (typeof v === 'boolean') return 5;
  if (typeof v === 'number') return Number.isInteger(v) ? 4 : 10;
  return 3;
}

export interface Answer {
  d: Dispatched;
  reqs: RecordedRequest[];
  /** Interaction callback bodies (`{type, data}`). */
  callbacks: { type: number; data?: Json }[];
  /** Every message payload sent for this interaction: callback data (types 4/7), edits and follow-ups. */
  messages: { via: 'callback' | 'edit' | 'followup'; body: Json }[];
}

export function answerOf(emu: DiscordEmulator, d: Dispatched): Answer {
  const reqs = emu.forInteraction(d);
  const callbacks = reqs
    .filter((r) => r.path.endsWith('/callback'))
    .map((r) => r.body as { type: number; data?: Json });
  const messages: Answer['messages'] = [];
  for (const r of reqs) {
    if (r.path.endsWith('/callback')) {
      const cb = r.body as { type: number; data?: Json };
      if ((cb.type === 4 || cb.type === 7) && cb.data) messages.push({ via: 'callback', body: cb.data });
    } else if (r.method === 'PATCH') messages.push({ via: 'edit', body: r.body as Json });
    else if (r.method === 'POST') messages.push({ via: 'followup', body: r.body as Json });
  }
  return { d, reqs, callbacks, messages };
}

/** `/arena <sub> name:value…` (in `at`, default the emulator's channel), waiting until the bot has finished handling it. */
export async function slash(
  emu: DiscordEmulator,
  bot: DiscordBot,
  user: EmulatorUser,
  sub: string,
  opts: Record<string, string | number | boolean> = {},
  at?: Place,
): Promise<Answer> {
  const options = Object.entries(opts).map(([name, value]) => ({ name, type: optionType(value), value }));
  const d = emu.dispatchSlash(user, 'arena', sub, options, at);
  await bot.handled(d.id);
  return answerOf(emu, d);
}

/** A button click (in `at`, default the emulator's channel), waiting for the bot. */
export async function click(
  emu: DiscordEmulator,
  bot: DiscordBot,
  user: EmulatorUser,
  customId: string,
  message?: Json,
  at?: Place,
): Promise<Answer> {
  const d = emu.dispatchButton(user, customId, message, at);
  await bot.handled(d.id);
  return answerOf(emu, d);
}

/** A modal submit, waiting for the bot. */
export async function submitModal(
  emu: DiscordEmulator,
  bot: DiscordBot,
  user: EmulatorUser,
  customId: string,
  fields: Record<string, string>,
): Promise<Answer> {
  const d = emu.dispatchModal(user, customId, fields);
  await bot.handled(d.id);
  return answerOf(emu, d);
}

export const isEphemeral = (body: Json): boolean => (Number(body.flags ?? 0) & 64) === 64;

/** All visible text of a message payload: content, embed titles/descriptions/fields, button labels and ids. */
export function payloadText(body: Json): string {
  const parts: string[] = [String(body.content ?? '')];
  for (const e of (body.embeds ?? []) as {
    title?: string;
    description?: string;
    fields?: { name: string; value: string }[];
  }[]) {
    parts.push(e.title ?? '', e.description ?? '', ...(e.fields ?? []).flatMap((f) => [f.name, f.value]));
  }
  for (const row of (body.components ?? []) as { components?: { label?: string; custom_id?: string }[] }[]) {
    for (const c of row.components ?? []) parts.push(c.label ?? '', c.custom_id ?? '');
  }
  return parts.filter((p) => p !== '').join('\n');
}

/** Custom ids of the buttons of a payload. */
export function buttonIds(body: Json): string[] {
  return ((body.components ?? []) as { components?: { custom_id?: string }[] }[]).flatMap((r) =>
    (r.components ?? []).map((c) => c.custom_id ?? ''),
  );
}

/**
 * Every public message of the session: channel posts, and interaction messages that are not ephemeral
 * (replies, edits of public deferred replies, public follow-ups). Deferrals in this adapter are always
 * public, so their edits are public.
 */
export function publicMessages(emu: DiscordEmulator): { seq: number; via: string; body: Json }[] {
  const out: { seq: number; via: string; body: Json }[] = [];
  for (const r of emu.requests) {
    const body = r.body as Json;
    if (r.method === 'POST' && /^\/api\/v10\/channels\/\d+\/messages$/.test(r.path))
      out.push({ seq: r.seq, via: 'channel', body });
    else if (r.path.endsWith('/callback')) {
      const cb = body as { type: number; data?: Json };
      if ((cb.type === 4 || cb.type === 7) && cb.data && !isEphemeral(cb.data))
        out.push({ seq: r.seq, via: 'reply', body: cb.data });
    } else if (
      r.path.startsWith('/api/v10/webhooks/') &&
      (r.method === 'POST' || r.method === 'PATCH') &&
      !isEphemeral(body)
    ) {
      out.push({ seq: r.seq, via: r.method === 'PATCH' ? 'edit' : 'followup', body });
    }
  }
  return out;
}

/** A running bot on the emulator for a test file: its parts are set in `before` and stopped in `after`. */
export interface DiscordSession {
  emu: DiscordEmulator;
  store: EventStore;
  rt: DiscordRuntime;
}

/**
 * Registers `before` / `after` hooks that start the real bot (startDiscord: catalogue, round host, a SQLite
 * ':memory:' store, commands answered without a soft deadline) on a fresh emulator with `extra` options, and
 * stop everything afterwards. `DUMP_LOG=1` prints the bot's log.
 */
export function discordSession(extra: Pick<StartDiscordOptions, 'threads' | 'hostOptions'> = {}): DiscordSession {
  const session = { emu: new DiscordEmulator() } as DiscordSession;
  before(async () => {
    await session.emu.start();
    session.store = await openStore({ sqlitePath: ':memory:' });
    const logger = pino({ level: process.env.DUMP_LOG ? 'debug' : 'silent' });
    session.rt = await startDiscord({
      env: { DISCORD_TOKEN: 'MTIz.session.SECRET' },
      store: session.store,
      logger,
      restApi: session.emu.restApi,
      softDeadlineMs: 60_000,
      ...extra,
    });
  });
  after(async () => {
    await session.rt.stop();
    await session.store.close();
    await session.emu.close();
  });
  return session;
}
