/**
 * Interaction handling: `/arena <sub>` → backend.run; a button (`arena:@<match id> <command text>`) →
 * backend.runText in that match (a button without its match is refused as expired);
 * `/arena pitch` without text (or a button running just `pitch`) → the pitch form (modal, type 9), whose
 * submit (`arena-modal:pitch`) → backend.run('pitch', fields); the "My private update" button → the
 * caller's held private posts; autocomplete → backend.complete.
 *
 * Discord's 3-second limit: commands that can start a match or close a round (scripted seats, the judge,
 * an LLM may run) are deferred first (type 5 callback) and answered with editReply (PATCH @original).
 * Any other command that has not finished after `softDeadlineMs` is deferred too.
 */
import {
  ApplicationCommandOptionType,
  ComponentType,
  MessageFlags,
  TextInputStyle,
  type AutocompleteInteraction,
  type Interaction,
  type APIModalInteractionResponseCallbackData,
} from 'discord.js';
import type { Logger } from 'pino';
import type { Caller, Reply } from '../../commands/types.js';
import type { ThreadSurface } from '../../chat/types.js';
import type { CommandBackend, MatchContext, RawOptions } from './backend.js';
import { callerOf } from './caller.js';
import { offerModalCommand, offerModalJson } from './builder.js';
import { FORM_OPTIONS, ROOT_COMMAND } from './commands-json.js';
import {
  answer,
  inboxMessages,
  INBOX_BUTTON_ID,
  planMessages,
  transientAnswerError,
  type Planned,
  type Repliable,
} from './deliver.js';
import type { PrivateInbox } from './inbox.js';
import { notice, type ButtonIds } from './render.js';
import { unboundCommand } from '../../chat/reply.js';

/**
 * Commands deferred at once: they start a match or can close a round (the host then runs scripted and
 * LLM seats and the judge: RoundHost.start/done, `finish` of the last pending seat), or end a match; and
 * the ones that render a chart (`leaderboard` also reads every finished match).
 */
export const SLOW_COMMANDS: ReadonlySet<string> = new Set(['start', 'done', 'finish', 'end', 'leaderboard', 'chart']);

/** custom_id prefix of modals: `arena-modal:<command>`; the text inputs' ids are the command's option names. */
export const MODAL_PREFIX = 'arena-modal:';

/** What {@link createInteractionHandler} needs. */
export interface HandlerDeps {
  backend: CommandBackend;
  ids: ButtonIds;
  inbox: PrivateInbox;
  logger: Logger;
  adminRoleId: string | null;
  /** A command still running after this many ms is deferred (default 2000; Discord's limit is 3000). */
  softDeadlineMs: number;
  /** Posts a reply to a channel (the bot's per-channel queue): a match's thread, when a command typed elsewhere posts there. */
  publish(channelId: string, reply: Reply): Promise<void>;
  /** What `new` can do to open its match in a thread, for an interaction in a thread (`inThread`) or not. */
  surface(inThread: boolean): ThreadSurface;
}

/** A slash command or form, or a command text (`match`: the match a pressed button was made for). */
type Work =
  { kind: 'run'; name: string; options: RawOptions; match?: string } | { kind: 'text'; text: string; match?: string };

function commandName(w: Work): string {
  return w.kind === 'run'
    ? w.name
    : (
        w.text
          .trim()
          .replace(/^\/arena\s+/i, '')
          .split(/\s+/)[0] ?? ''
      ).toLowerCase();
}

/** Options of the invoked subcommand as name → value (ids and lists as strings). */
export function subcommandOptions(i: {
  options: {
    data: readonly {
      type: ApplicationCommandOptionType;
      options?: readonly { name: string; value?: string | number | boolean }[];
    }[];
  };
}): RawOptions {
  const sub = i.options.data.find((o) => o.type === ApplicationCommandOptionType.Subcommand);
  const out: RawOptions = {};
  for (const o of sub?.options ?? []) if (o.value !== undefined) out[o.name] = o.value;
  return out;
}

/** The pitch form of `/arena pitch` without text; field ids are the pitch command's option names. */
export const PITCH_FORM: NonNullable<Reply['modal']> = {
  command: 'pitch',
  title: 'Your pitch to the judge',
  fields: [
    { id: 'text', label: 'Pitch (public, 12–1200 characters)', long: true, required: true },
    { id: 'job', label: 'Your job ids it argues for (comma-separated)', long: false, required: false },
  ],
};

/** Forms by command: opened by `/arena <command>` without its FORM_OPTIONS option, or by a button running just `<command>`. */
export const FORMS: Readonly<Record<string, NonNullable<Reply['modal']>>> = { pitch: PITCH_FORM };

/** The Discord modal for a Reply's `modal` request. */
export function modalJson(modal: NonNullable<Reply['modal']>): APIModalInteractionResponseCallbackData {
  return {
    custom_id: `${MODAL_PREFIX}${modal.command}`,
    title: modal.title.slice(0, 45),
    components: modal.fields.slice(0, 5).map((f) => ({
      type: ComponentType.Label,
      label: f.label.slice(0, 45),
      component: {
        type: ComponentType.TextInput,
        custom_id: f.id,
        style: f.long ? TextInputStyle.Paragraph : TextInputStyle.Short,
        required: f.required,
        max_length: f.long ? 1200 : 200,
      },
    })),
  };
}

/**
 * The client's `interactionCreate` listener (routing: see the file comment). Never rejects: an unexpected
 * error is logged and answered with a short notice if the interaction can still be answered.
 */
export function createInteractionHandler(deps: HandlerDeps): (i: Interaction) => Promise<void> {
  const { backend, logger } = deps;

  const run = (w: Work, channelId: string, caller: Caller, surface: ThreadSurface): Promise<Reply> => {
    const opts = { surface, ...(w.match !== undefined ? { match: w.match } : {}) };
    return w.kind === 'run'
      ? backend.run(channelId, caller, w.name, w.options, opts)
      : backend.runText(channelId, caller, w.text, opts);
  };

  async function context(channelId: string, userId: string): Promise<MatchContext | null> {
    try {
      return await backend.context(channelId, userId);
    } catch (err) {
      logger.warn({ err: (err as Error).message }, 'discord: match context unavailable');
      return null;
    }
  }

  /** Defers the interaction (ephemerally for a private answer) when `work` is not done within the soft deadline. */
  async function deferIfSlow(i: Repliable, work: Promise<unknown>, ephemeral = false): Promise<void> {
    if (i.deferred || i.replied) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), deps.softDeadlineMs)));
    const first = await Promise.race([
      work.then(
        () => 'done' as const,
        () => 'done' as const,
      ),
      late,
    ]);
    clearTimeout(timer);
    if (first === 'late') await i.deferReply(ephemeral ? { flags: MessageFlags.Ephemeral } : {});
  }

  async function execute(i: Repliable, w: Work, allowModal: boolean): Promise<void> {
    const caller = callerOf(i, deps.adminRoleId);
    const channelId = i.channelId ?? '';
    const name = commandName(w);
    const started = Date.now();
    if (SLOW_COMMANDS.has(name)) await i.deferReply();
    // Everything before the first response counts against Discord's 3 s: the command, the match context and
    // the inbox's store work (which reaches the database when several processes share one).
    const work = (async () => {
      const reply = await run(w, channelId, caller, deps.surface(i.channel?.isThread() ?? false));
      // A match found from its parent channel posts in its thread (src/commands/locate.ts): only the caller's
      // own posts answer here, the rest goes there with the card (elsewhere, below).
      const dest = reply.channelId ?? channelId;
      const ctx = await context(dest, caller.userId);
      const wantsModal = (reply.modal !== undefined || reply.form !== undefined) && allowModal && !i.isModalSubmit();
      const here =
        dest === channelId ? reply : { public: [], private: reply.private.filter((p) => p.userId === caller.userId) };
      return {
        reply,
        ctx,
        dest,
        plan: wantsModal ? null : await planMessages(here, caller.userId, dest, deps.inbox, deps.ids),
      };
    })();
    await deferIfSlow(i, work);
    const { reply, ctx, dest, plan: planned } = await work;
    const log = logger.child({ matchId: ctx?.matchId ?? null, seat: ctx?.seat ?? null, command: name });
    const modal = reply.modal ? modalJson(reply.modal) : reply.form ? offerModalJson(reply.form) : null;
    if (modal && allowModal && !i.deferred && !i.replied && !i.isModalSubmit()) {
      await i.showModal(modal);
      log.info({ interaction: i.id, ms: Date.now() - started }, 'discord: modal shown');
      return;
    }
    const plan = planned ?? (await planMessages(reply, caller.userId, dest, deps.inbox, deps.ids));
    // A form asked for too late to show (the reply was deferred): say how to open it.
    if (reply.modal && plan.pub.length + plan.mine.length === 0)
      plan.mine.push(notice(`Open the form with \`/arena ${reply.modal.command}\`.`));
    const elsewhere =
      dest !== channelId && (reply.public.length > 0 || reply.private.some((p) => p.userId !== caller.userId));
    if (elsewhere) plan.mine.push(notice(`Posted in the match's thread: <#${dest}>`));
    await answerKeeping(i, plan, log);
    if (elsewhere || reply.card) {
      const rest: Reply = elsewhere
        ? { public: reply.public, private: reply.private.filter((p) => p.userId !== caller.userId) }
        : { public: [], private: [] };
      await deps.publish(dest, reply.card ? { ...rest, card: reply.card } : rest);
    }
    log.info(
      {
        interaction: i.id,
        deferred: i.deferred,
        public: reply.public.length,
        private: reply.private.length,
        thread: dest !== channelId ? dest : null,
        ms: Date.now() - started,
      },
      'discord: command answered',
    );
  }

  /**
   * Answer; if that fails for a passing reason, the caller's private posts it carried go back to the inbox
   * (shown with the next interaction); a payload Discord rejects outright is dropped, not retried forever.
   */
  async function answerKeeping(i: Repliable, plan: Planned, log?: Logger): Promise<void> {
    try {
      await answer(i, plan, log);
    } catch (err) {
      if (transientAnswerError(err)) await deps.inbox.add(i.channelId ?? '', plan.taken);
      else
        log?.error(
          { interaction: i.id, dropped: plan.taken.length, err: (err as Error).message },
          'discord: answer rejected, private posts dropped',
        );
      throw err;
    }
  }

  async function autocomplete(i: AutocompleteInteraction): Promise<void> {
    const focused = i.options.getFocused(true);
    const command = i.options.getSubcommand(false) ?? '';
    const kind = backend.commands.find((c) => c.name === command)?.options.find((o) => o.name === focused.name)?.kind;
    if (!kind) return void (await i.respond([]));
    const got = await backend.complete(i.channelId ?? '', callerOf(i, deps.adminRoleId), kind, String(focused.value), {
      command,
      option: focused.name,
    });
    await i.respond(
      got
        .filter((c) => c.value.length <= 100)
        .slice(0, 25)
        .map((c) => ({ name: c.name.slice(0, 100) || c.value, value: c.value })),
    );
  }

  async function handle(i: Interaction): Promise<void> {
    if ((i.isAutocomplete() || i.isChatInputCommand()) && i.commandName !== ROOT_COMMAND) return;
    if (i.isAutocomplete()) return autocomplete(i);
    if (i.isChatInputCommand()) {
      const name = i.options.getSubcommand(false) ?? '';
      const options = subcommandOptions(i);
      const form = FORMS[name];
      // Shown at once, without the host: a modal must be the first response, within 3 s.
      if (form && options[FORM_OPTIONS[name] ?? ''] === undefined) return void (await i.showModal(modalJson(form)));
      return execute(i, { kind: 'run', name, options }, true);
    }
    if (i.isButton() && i.customId === INBOX_BUTTON_ID) {
      const taking = inboxMessages(deps.inbox, callerOf(i, deps.adminRoleId).userId, i.channelId, deps.ids);
      await deferIfSlow(i, taking, true);
      return answerKeeping(i, await taking);
    }
    if (i.isButton()) {
      const text = deps.ids.command(i.customId);
      // A button without its match (forgotten, or made before buttons named their match) could act on whatever
      // match the channel holds now: refused.
      const bound = text === null ? null : unboundCommand(text);
      if (bound === null) {
        logger.info(
          { interaction: i.id, customId: i.customId.slice(0, 100) },
          'discord: a button without its match refused',
        );
        return void (await i.reply(
          notice('This button has expired. Nothing was changed. Use /arena me or /arena help.'),
        ));
      }
      const form = FORMS[bound.command];
      if (form) return void (await i.showModal(modalJson(form)));
      return execute(i, { kind: 'text', text: bound.command, match: bound.matchId }, true);
    }
    // The offer builder's modal (builder.ts): its selects and fields become the catalogue's offer/counter options.
    const built = i.isModalSubmit() ? offerModalCommand(i.customId, i.fields.fields) : null;
    if (i.isModalSubmit() && built)
      return execute(i, { kind: 'run', name: built.name, options: built.options, match: built.matchId }, false);
    if (i.isModalSubmit() && i.customId.startsWith(MODAL_PREFIX)) {
      const options: RawOptions = {};
      for (const [id, field] of i.fields.fields) {
        if ('value' in field && typeof field.value === 'string' && field.value.trim() !== '') options[id] = field.value;
      }
      return execute(i, { kind: 'run', name: i.customId.slice(MODAL_PREFIX.length), options }, false);
    }
  }

  return async (i: Interaction) => {
    try {
      await handle(i);
    } catch (err) {
      logger.error({ interaction: i.id, err: (err as Error).message }, 'discord: interaction failed');
      if (!i.isRepliable()) return;
      const msg = notice('Something went wrong (internal_error). Please try again.');
      try {
        if (i.deferred || i.replied) await i.followUp(msg);
        else await i.reply(msg);
      } catch (_e) {
        // The interaction token may have expired; nothing more to do.
      }
    }
  };
}
