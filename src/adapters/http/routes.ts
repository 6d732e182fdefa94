/**
 * The routes of the trainer HTTP API (the original's /health, /tasks, /reset, /step, /state, docs/RULES.md §A.1, plus
 * DELETE /session/:id). Handlers only translate: the rules are the engine's (src/engine), sessions are
 * sessions.ts, the original's names original-compat.ts and its shapes original-format.ts.
 *
 * Who may read what: a single-seat session is addressed by its `session_id` (or, without one, the
 * default session); a self-play seat's token acts and reads as that seat only (never the session id,
 * the public view or the full state); the self-play admin token (returned to the creator by the reset)
 * reads the public view and deletes the session.
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ACTION_TYPES } from '../../engine/actions.js';
import { publicView } from '../../engine/index.js';
import { PRESETS } from '../../engine/world.js';
import { TASK_NAMES, type LabId } from '../../engine/types.js';
import { ApiError } from './errors.js';
import { actionFromTopLevel, resolveTask } from './original-compat.js';
import { ORIGINAL_BENCHMARK_ID } from './original-format.js';
import { SelfPlay, SingleSeatPlay, type ObservationFormat, type PlaySettings } from './play.js';
import {
  DeleteQuerySchema,
  ResetBodySchema,
  SessionParamsSchema,
  StateQuerySchema,
  StepBodySchema,
} from './schemas.js';
import type { Session, SessionStore } from './sessions.js';

/** What the routes need from the app. */
export interface RouteDeps {
  store: SessionStore;
  /** Allow `GET /state?include_private=true` (config server.debugState). */
  debugState: boolean;
  /** The server's answer shapes (config server.compat): the default observation format and benchmark id. */
  compat: ObservationFormat;
}

/** Identifies this environment in /health and /tasks (the original said gpu_budget_negotiation). */
export const BENCHMARK_ID = 'gpu_arena';

/** Features listed by /tasks (the original's list, docs/RULES.md §A.1, where they hold here, plus ours). */
const FEATURES = [
  'coalitions',
  'rule_judge',
  'holdout_seed_evaluation',
  'redacted_public_state',
  'dynamic_market_shocks',
  'sessions',
  'self_play_seats',
];

const TASKS = TASK_NAMES.map((t) => {
  const p = PRESETS[t];
  return {
    task_type: t,
    difficulty: p.difficulty,
    labs: p.labCounts,
    max_rounds: p.roundCounts,
    coalitions: p.coalitionsEnabled,
    shocks: p.shockCount,
  };
});

const SESSION_ID = 'session_id';

function selfPlayOf(s: Session): SelfPlay {
  if (s.play.kind !== 'self_play')
    throw new ApiError(400, 'invalid_request', `session ${s.id} has one seat: step with session_id, not a token`);
  return s.play;
}

function singleOf(s: Session): SingleSeatPlay {
  if (s.play.kind !== 'single')
    throw new ApiError(
      400,
      'token_required',
      `session ${s.id} is a self-play session: step with a seat's token ({token, action})`,
    );
  return s.play;
}

/**
 * Register /health, /tasks, /reset, /step, /state and DELETE /session/:id on `app` (zod-validated; a
 * refusal is thrown as an {@link ApiError} and rendered by the app's error handler).
 */
export function registerRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const { store } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const benchmarkId = deps.compat === 'original' ? ORIGINAL_BENCHMARK_ID : BENCHMARK_ID;
  const privateRefused = () =>
    new ApiError(
      403,
      'debug_state_disabled',
      'the full state holds every seat’s private values; the server must run with server.debugState (ARENA_SERVER_DEBUG_STATE=1 or GPU_ARENA_DEBUG_STATE=1) to show it',
    );

  r.get('/health', { schema: { description: 'Liveness, as the original: {status, benchmark_id}' } }, () => ({
    status: 'ok',
    benchmark_id: benchmarkId,
    sessions: store.size,
  }));

  r.get('/tasks', { schema: { description: 'The three tasks, the 14 action types and the features' } }, () => ({
    benchmark_id: benchmarkId,
    tasks: TASKS,
    action_types: ACTION_TYPES,
    features: FEATURES,
  }));

  r.post(
    '/reset',
    {
      schema: {
        description:
          'Start a session: one controlled seat (→ session_id, observation) or, with `seats`, self-play (→ a token per seat)',
        body: ResetBodySchema.nullish(),
      },
    },
    (req) => {
      const body = req.body ?? ResetBodySchema.parse({});
      const task = resolveTask(body.task, body.task_type, body.difficulty);
      if (typeof task !== 'string') throw new ApiError(422, 'difficulty_conflict', task.conflict);
      // Self-play without a seed gets a random one: a guessable seed would give every seat the others' jobs.
      const seed = body.seed ?? (body.seats ? randomInt(0, 2 ** 47) : 42);
      const format = body.observation_format ?? deps.compat;
      const settings: PlaySettings = {
        task,
        seed,
        holdout: body.holdout,
        actionsPerRound: body.actions_per_round,
        invalidActions: body.invalid_actions,
        judgeMode: body.judge_mode ?? null,
        opponents: body.opponents,
        format,
      };
      const info = {
        task,
        task_id: `${task}-${seed}`,
        seed,
        difficulty: PRESETS[task].difficulty,
        judge_mode: settings.judgeMode,
        judge: 'rule_judge',
        actions_per_round: settings.actionsPerRound,
        invalid_actions: settings.invalidActions,
        observation_format: format,
      };
      if (body.seats) {
        if (body.seat !== undefined)
          throw new ApiError(400, 'invalid_request', 'send seat (one controlled seat) or seats (self-play), not both');
        if (body.session_id !== undefined)
          throw new ApiError(
            400,
            'invalid_request',
            'a self-play reset opens a new session: send seats without session_id',
          );
        const play = build(() => new SelfPlay(settings, body.seats!));
        const s = store.add(play, req.ip, body.seats);
        const seats: Record<LabId, { token: string; observation: unknown }> = {};
        for (const seat of body.seats)
          seats[seat] = { token: s.tokens.get(seat)!, observation: play.observation(seat) };
        return { [SESSION_ID]: s.id, admin_token: s.adminToken, seats, info: { ...info, seats: body.seats } };
      }
      const seat = body.seat ?? 'lab_0';
      if (body.session_id !== undefined) {
        const s = store.get(body.session_id);
        if (s.play.kind !== 'single')
          throw new ApiError(
            400,
            'invalid_request',
            `session ${s.id} is a self-play session: reset without session_id for a new one`,
          );
        return store.run(s, () => {
          const play = build(() => new SingleSeatPlay(settings, seat));
          s.play = play;
          return { observation: play.observation(), [SESSION_ID]: s.id, info: { ...info, seat, session: s.kind } };
        });
      }
      const play = build(() => new SingleSeatPlay(settings, seat));
      const s = body.new_session ? store.add(play, req.ip) : store.resetDefault(play, req.ip);
      return { observation: play.observation(), [SESSION_ID]: s.id, info: { ...info, seat, session: s.kind } };
    },
  );

  r.post(
    '/step',
    {
      schema: {
        description:
          'One action: {session_id, action} or {token, action} (self-play), or the original action object at the top level → {observation, reward, done, info}',
        body: StepBodySchema,
      },
    },
    (req) => {
      const body = req.body;
      let raw: unknown;
      if (body.action !== undefined) raw = body.action;
      else if (body.action_type !== undefined) raw = actionFromTopLevel(body);
      else
        throw new ApiError(
          400,
          'invalid_body',
          'no action: send {session_id, action: {action_type, …}}, or the action fields at the top level as the original did',
        );
      if (body.token !== undefined) {
        const { session, seat } = store.byToken(body.token);
        if (body.session_id !== undefined && body.session_id !== session.id)
          throw new ApiError(400, 'invalid_request', 'the token belongs to another session');
        return store.run(session, () => selfPlayOf(session).step(seat, raw));
      }
      // The original auto-reset with its defaults when /step came before any /reset (docs/RULES.md §A.1).
      if (body.session_id === undefined && deps.compat === 'original' && !store.hasDefault) {
        store.resetDefault(
          new SingleSeatPlay(
            {
              task: 'single_trade',
              seed: 42,
              holdout: false,
              actionsPerRound: 1,
              invalidActions: 'reject',
              judgeMode: 'off',
              format: 'original',
            },
            'lab_0',
          ),
          req.ip,
        );
      }
      const session = store.get(body.session_id);
      // The play is read when the call's turn comes: an in-place reset queued before it replaces it.
      return store.run(session, () => singleOf(session).step(raw));
    },
  );

  r.get(
    '/state',
    {
      schema: {
        description:
          "A single-seat session's view (?session_id, or the default session); a seat's own view (?token); a self-play session's public view (?admin_token). include_private=true: the full state, only with server.debugState and never for a seat token",
        querystring: StateQuerySchema,
      },
    },
    (req) => {
      const q = req.query;
      if (q.token !== undefined) {
        if (q.include_private)
          throw new ApiError(
            403,
            'seat_token_scope',
            'a seat token reads only its own seat’s view; the full state is never shown to a seat',
          );
        const { session, seat } = store.byToken(q.token);
        if (q.session_id !== undefined && q.session_id !== session.id)
          throw new ApiError(400, 'invalid_request', 'the token belongs to another session');
        return store.run(session, () => {
          const play = selfPlayOf(session);
          return { seat, state: play.observation(seat), waiting_for: play.waitingFor() };
        });
      }
      if (q.include_private && !deps.debugState) throw privateRefused();
      if (q.admin_token !== undefined) {
        const session = store.byAdminToken(q.admin_token);
        return store.run(session, () => {
          const play = selfPlayOf(session);
          if (q.include_private) return { [SESSION_ID]: session.id, state: play.state };
          return {
            [SESSION_ID]: session.id,
            seats: play.seats,
            state: publicView(play.state),
            waiting_for: play.waitingFor(),
          };
        });
      }
      const session = store.get(q.session_id);
      if (session.play.kind !== 'single') {
        throw new ApiError(
          403,
          'admin_token_required',
          `session ${session.id} is a self-play session: a seat reads its view with its token, the creator the public view with the admin_token of the reset`,
        );
      }
      return store.run(session, () => {
        const play = singleOf(session);
        if (q.include_private) return { [SESSION_ID]: session.id, state: play.state };
        if (play.format === 'original') return { state: play.publicState(), [SESSION_ID]: session.id };
        return { [SESSION_ID]: session.id, seat: play.seat, state: play.observation() };
      });
    },
  );

  r.delete(
    '/session/:id',
    {
      schema: {
        description: 'End a session (its tokens end with it); a self-play session needs its admin_token',
        params: SessionParamsSchema,
        querystring: DeleteQuerySchema,
      },
    },
    (req) => {
      const id = req.params.id;
      const s = store.get(id);
      if (s.adminToken !== null && req.query.admin_token !== s.adminToken) {
        throw new ApiError(
          403,
          'admin_token_required',
          `session ${id} is a self-play session: only its creator deletes it, with ?admin_token=… from the reset`,
        );
      }
      store.delete(id);
      return { deleted: id };
    },
  );
}

/**
 * Construct a session; a config the engine refuses (its zod error, e.g. an opponent for a seat that does
 * not exist, or its plain Error refusal) is a 422. A TypeError and the like is a bug of ours: it stays a 500.
 */
function build<T>(make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (e instanceof z.ZodError)
      throw new ApiError(
        422,
        'invalid_request',
        e.issues.map((i) => `${i.path.join('.') || 'reset'}: ${i.message}`).join('; '),
      );
    if (e instanceof Error && e.constructor === Error) throw new ApiError(422, 'invalid_request', e.message);
    throw e;
  }
}
