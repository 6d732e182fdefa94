/**
 * Slack listeners: `/arena <text>` → backend.runText; a button (`block_actions`, action_id `arena:…`,
 * value = `@<match id> <command text>`) → backend.runText in that match (a button without its match is
 * refused as expired); the pitch modal's `view_submission` → backend.runCommand('pitch').
 *
 * Slack's 3-second limit: every listener acks first, with no work before it (a view_submission only
 * checks field lengths locally so errors can show in the modal), then runs the command and answers
 * through response_url / chat.postEphemeral / the channel queue (deliver.ts).
 */
import type { App, RespondFn as BoltRespondFn, types } from '@slack/bolt';
import { OFFER_CALLBACK_ID, offerView, parseOfferSubmission } from './builder.js';
import { homeView } from './home.js';
import type { Logger } from 'pino';
import { isCommandError, parseCommandText } from '../../commands/grammar.js';
import { COMMAND_SPECS } from '../../commands/specs.js';
import type { Caller, Reply } from '../../commands/types.js';
import type { ThreadSurface } from '../../chat/types.js';
import type { SlackBackend, SlackMatchContext } from './backend.js';
import { errText, USER_PREFIX, type RespondFn, type SlackPoster } from './deliver.js';
import {
  parsePitchSubmission,
  pitchFieldErrors,
  pitchView,
  PITCH_CALLBACK_ID,
  PITCH_FORM,
  type ModalForm,
} from './modal.js';
import { ACTION_ID_PATTERN, commandOfAction } from './render.js';
import { unboundCommand } from '../../chat/reply.js';

/** The slash command this app answers (see slack/manifest.yml). */
export const SLASH_COMMAND = '/arena';

/** What {@link registerHandlers} needs. */
export interface HandlerDeps {
  backend: SlackBackend;
  poster: SlackPoster;
  logger: Logger;
  /** Slack user ids (no prefix) treated as admins (Caller.isAdmin). */
  adminUserIds: ReadonlySet<string>;
  /** Opens a modal (views.open): the pitch form or the offer builder. */
  openView(triggerId: string, view: types.ModalView): Promise<unknown>;
  /** Publishes a person's App Home view (views.publish). */
  publishHome(userId: string, view: types.HomeView): Promise<unknown>;
  /** What `new` can do to open its match in the thread of a card (threads.ts). */
  surface: ThreadSurface;
  /** Registers running work so `idle()` / shutdown can wait for it; returns the same promise. */
  track(work: Promise<void>): Promise<void>;
}

/** The platform-neutral caller of a request. */
export function callerOf(userId: string, name: string | undefined, admins: ReadonlySet<string>): Caller {
  return {
    userId: `${USER_PREFIX}${userId}`,
    displayName: name && name.trim() !== '' ? name : userId,
    isAdmin: admins.has(userId),
  };
}

/** The command name of a text line (for logs), or null when it does not parse. */
export function commandName(text: string): string | null {
  const p = parseCommandText(text, COMMAND_SPECS);
  return isCommandError(p) ? null : p.name;
}

/** True for `pitch` with no `text`: the modal opens instead of running the command. */
function wantsPitchForm(text: string): boolean {
  const p = parseCommandText(text, COMMAND_SPECS);
  return !isCommandError(p) && p.name === 'pitch' && p.options['text'] === undefined;
}

const asRespond =
  (respond: BoltRespondFn): RespondFn =>
  (m) =>
    respond(m);

interface Request {
  kind: 'command' | 'button' | 'modal';
  channelId: string;
  caller: Caller;
  command: string | null;
  triggerId: string | null;
  respond: RespondFn | null;
}

/** Registers the `/arena` command, button and pitch-modal listeners on `app` (see the file comment). */
export function registerHandlers(app: App, deps: HandlerDeps): void {
  const { backend, poster, logger } = deps;

  async function matchContext(req: Request): Promise<SlackMatchContext | null> {
    try {
      return await backend.context(req.channelId, req.caller.userId);
    } catch (err) {
      logger.warn({ err: errText(err) }, 'slack: match context unavailable');
      return null;
    }
  }

  /** A logger with the match and seat as before the command, completed from after it (`new`, `join`). */
  async function logContext(req: Request, before: SlackMatchContext | null = null): Promise<Logger> {
    const after = before?.seat ? null : await matchContext(req);
    const matchId = before?.matchId ?? after?.matchId ?? null;
    const seat = before?.seat ?? after?.seat ?? null;
    return logger.child({ matchId, seat, command: req.command, via: req.kind });
  }

  /** Opens a form with the request's trigger_id (valid for 3 s); false when there is none or Slack refused. */
  async function openForm(req: Request, form: ModalForm | NonNullable<Reply['form']>): Promise<boolean> {
    if (!req.triggerId) return false;
    try {
      await deps.openView(
        req.triggerId,
        'command' in form ? pitchView(form, req.channelId) : offerView(form, req.channelId),
      );
      return true;
    } catch (err) {
      logger.warn({ err: errText(err) }, 'slack: views.open failed; answering without the form');
      return false;
    }
  }

  /** After the ack: run, then deliver; any failure becomes an ephemeral notice for the caller. */
  async function execute(req: Request, run: () => Promise<Reply>): Promise<void> {
    const started = Date.now();
    try {
      const before = await matchContext(req);
      const reply = await run();
      const log = await logContext(req, before);
      const formOnly = reply.modal && reply.public.length === 0 && reply.private.length === 0;
      if (formOnly && reply.modal && (await openForm(req, reply.modal))) {
        log.info({ ms: Date.now() - started }, 'slack: modal opened');
        return;
      }
      // The offer builder replaces its typed help (the private post is what platforms without forms show).
      if (reply.form && reply.public.length === 0 && (await openForm(req, reply.form))) {
        log.info({ ms: Date.now() - started }, 'slack: modal opened');
        return;
      }
      await poster.answer(req.channelId, req.caller.userId, reply, req.respond);
      log.info(
        {
          ok: !reply.error,
          error: reply.error?.code ?? null,
          public: reply.public.length,
          private: reply.private.length,
          ms: Date.now() - started,
        },
        'slack: command answered',
      );
    } catch (err) {
      logger.error({ command: req.command, via: req.kind, err: errText(err) }, 'slack: request failed');
      const text = 'Something went wrong (internal_error). Please try again.';
      await poster
        .answer(
          req.channelId,
          req.caller.userId,
          { public: [], private: [{ userId: req.caller.userId, text }] },
          req.respond,
        )
        .catch(() => undefined);
    }
  }

  /** Run a command line; `match`: the match a pressed button was made for. */
  async function runLine(req: Request, text: string, match?: string): Promise<void> {
    // Without the form the command runs as typed, and the catalogue explains the missing `text`.
    if (wantsPitchForm(text) && (await openForm(req, PITCH_FORM)))
      return void (await logContext(req)).info('slack: modal opened');
    await execute(req, () =>
      backend.runText(req.channelId, req.caller, text, {
        surface: deps.surface,
        ...(match === undefined ? {} : { match }),
      }),
    );
  }

  app.command(SLASH_COMMAND, async ({ command, ack, respond }) => {
    await ack();
    const req: Request = {
      kind: 'command',
      channelId: command.channel_id,
      caller: callerOf(command.user_id, command.user_name, deps.adminUserIds),
      command: commandName(command.text),
      triggerId: command.trigger_id || null,
      respond: asRespond(respond),
    };
    await deps.track(runLine(req, command.text));
  });

  app.action({ type: 'block_actions', action_id: ACTION_ID_PATTERN }, async ({ ack, body, action, respond }) => {
    await ack();
    const text = action.type === 'button' ? commandOfAction(action) : null;
    const channelId = body.channel?.id ?? body.container?.['channel_id'];
    if (text === null || typeof channelId !== 'string')
      return void logger.warn({ actionType: action.type }, 'slack: action without a command or channel ignored');
    const bound = unboundCommand(text);
    const req: Request = {
      kind: 'button',
      channelId,
      caller: callerOf(body.user.id, body.user.username ?? body.user.name, deps.adminUserIds),
      command: commandName(bound?.command ?? text),
      triggerId: body.trigger_id || null,
      respond: asRespond(respond),
    };
    // A button without its match (made before buttons named their match) could act on whatever match the
    // channel holds now: refused, privately.
    if (bound === null) {
      logger.info(
        { via: 'button', actionId: action.action_id.slice(0, 100) },
        'slack: a button without its match refused',
      );
      return void (await deps.track(
        poster.answer(
          channelId,
          req.caller.userId,
          {
            public: [],
            private: [
              {
                userId: req.caller.userId,
                text: 'This button has expired. Nothing was changed. Use `/arena me` or `/arena help`.',
              },
            ],
          },
          req.respond,
        ),
      ));
    }
    await deps.track(runLine(req, bound.command, bound.matchId));
  });

  app.view({ type: 'view_submission', callback_id: PITCH_CALLBACK_ID }, async ({ ack, view, body }) => {
    const sub = parsePitchSubmission(view);
    if ('error' in sub) {
      await ack();
      return void logger.warn({ code: sub.error }, 'slack: unreadable pitch submission ignored');
    }
    const errors = pitchFieldErrors(sub.options);
    if (errors) return void (await ack({ response_action: 'errors', errors }));
    await ack();
    const req: Request = {
      kind: 'modal',
      channelId: sub.channelId,
      caller: callerOf(body.user.id, body.user.name, deps.adminUserIds),
      command: 'pitch',
      triggerId: null,
      respond: null,
    };
    await deps.track(execute(req, () => backend.runCommand(sub.channelId, req.caller, 'pitch', sub.options)));
  });

  // The App Home tab (home.ts): published for the person who opened it; Bolt acks the event itself.
  app.event('app_home_opened', async ({ event }) => {
    if (event.tab !== 'home') return;
    const work = (async () => {
      try {
        const home = await backend.home(`${USER_PREFIX}${event.user}`);
        await deps.publishHome(event.user, homeView(home.entries, home.record));
        logger.info({ via: 'app_home' }, 'slack: home published');
      } catch (err) {
        logger.error({ via: 'app_home', err: errText(err) }, 'slack: home not published');
      }
    })();
    await deps.track(work);
  });

  // The offer builder (builder.ts): acked at once; the command's errors come back as an ephemeral, like a typed one.
  app.view({ type: 'view_submission', callback_id: OFFER_CALLBACK_ID }, async ({ ack, view, body }) => {
    await ack();
    const sub = parseOfferSubmission(view);
    if ('error' in sub)
      return void logger.warn({ code: sub.error }, 'slack: unreadable offer builder submission ignored');
    const req: Request = {
      kind: 'modal',
      channelId: sub.channelId,
      caller: callerOf(body.user.id, body.user.name, deps.adminUserIds),
      command: sub.name,
      triggerId: null,
      respond: null,
    };
    await deps.track(
      execute(req, () => backend.runCommand(sub.channelId, req.caller, sub.name, sub.options, { match: sub.matchId })),
    );
  });
}
