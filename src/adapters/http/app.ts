/**
 * The trainer HTTP API: fastify 5 with zod schemas on every route (fastify-type-provider-zod)
 * and the generated OpenAPI document at `/openapi.json`. `buildApp` returns an app that is not listening
 * yet (`app.listen`), so tests and the CLI share it. Every error is `{error: {code, message}}`
 * (errors.ts): 4xx for anything a client sent, 500 only for a bug of ours; with `compat: "original"`
 * it also carries FastAPI's `detail` (every 422: `{detail: [{loc, msg, type}]}`; others: the message), as the
 * original's clients read it. Requests are logged at debug; each session's lifecycle (opened, replaced,
 * deleted, expired) at info, one line each.
 */
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import { ApiError, FASTIFY_CODES } from './errors.js';
import type { ObservationFormat } from './play.js';
import { registerRoutes } from './routes.js';
import { SessionStore } from './sessions.js';

/** Options of {@link buildApp}: the config's `server` section plus test hooks. */
export interface AppOptions {
  server: {
    maxSessions: number;
    /** Own and self-play sessions one client address may hold (the config's default is 1/16 of maxSessions: src/app/config/schema.ts). */
    maxSessionsPerClient: number;
    idleTtlSeconds: number;
    bodyLimitBytes: number;
    debugState: boolean;
    /** Answer shapes: ours (default) or the original's (`--compat original`). */
    compat?: ObservationFormat;
  };
  /** Clock for idle expiry (ms; default Date.now). */
  now?: () => number;
  /** Fastify logger option (default off; the CLI passes a level). */
  logger?: boolean | { level: string };
}

/** The app and its session store (tests look at the store's size). */
export interface ServerApp {
  app: FastifyInstance;
  store: SessionStore;
}

/**
 * The app with every route registered and ready (not listening), and its session store. Starts the idle
 * sweep (an unref'd interval, cleared by `app.close()`).
 */
export async function buildApp(opts: AppOptions): Promise<ServerApp> {
  const compat = opts.server.compat ?? 'native';
  const app = Fastify({
    bodyLimit: opts.server.bodyLimitBytes,
    logger: opts.logger ?? false,
    keepAliveTimeout: 72_000,
    logController: new LogController({ disableRequestLogging: true }),
  });
  // One debug line per request, only when debug is on (a hook that logs nothing still costs a call per request).
  if (app.log.level === 'debug' || app.log.level === 'trace') {
    app.addHook('onResponse', (req, reply, done) => {
      req.log.debug(
        { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 },
        'request',
      );
      done();
    });
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // An empty JSON body counts as no body (`POST /reset` with the defaults, as some clients send it).
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    json(req, text, done);
  });
  const store = new SessionStore({
    maxSessions: opts.server.maxSessions,
    maxSessionsPerClient: opts.server.maxSessionsPerClient,
    idleTtlMs: opts.server.idleTtlSeconds * 1000,
    now: opts.now,
    onEvent: (e) => app.log.info(e, `session ${e.event}`),
  });
  const send = (reply: { status(n: number): { send(b: unknown): unknown } }, e: ApiError) =>
    reply.status(e.status).send(compat === 'original' ? originalErrorBody(e) : e.body());

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'GPU Arena trainer API',
        description: 'The arena engine over HTTP with sessions (the original OpenEnv routes, plus self-play seats).',
        version: '1.0.0',
      },
    },
    transform: jsonSchemaTransform,
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) return send(reply, err);
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'request';
      const issues = err.validation.map((v) => ({
        path: `${where}${v.instancePath.replaceAll('/', '.')}`.replace(/\.$/, ''),
        message: v.message ?? 'invalid',
      }));
      const code = where === 'body' && issues.some((i) => i.path === 'body') ? 'invalid_body' : 'invalid_request';
      // FastAPI answers a body that fails its model with 422; ours is 400 (the request itself is malformed).
      return send(
        reply,
        new ApiError(
          compat === 'original' ? 422 : 400,
          code,
          issues.map((i) => `${i.path}: ${i.message}`).join('; '),
          issues,
        ),
      );
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = (err.code && FASTIFY_CODES[err.code]) || 'invalid_request';
      const message =
        code === 'body_too_large'
          ? `the body is larger than ${opts.server.bodyLimitBytes} bytes (server.bodyLimitBytes)`
          : err.message;
      return send(reply, new ApiError(status, code, message));
    }
    req.log.error({ err }, 'unhandled error');
    return send(reply, new ApiError(500, 'internal_error', 'internal error (a bug of the server; it is logged)'));
  });
  app.setNotFoundHandler((req, reply) =>
    send(reply, new ApiError(404, 'not_found', `no route ${req.method} ${req.url}`)),
  );

  registerRoutes(app, { store, debugState: opts.server.debugState, compat });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());

  const sweep = setInterval(() => store.sweep(), Math.min(60_000, opts.server.idleTtlSeconds * 1000));
  sweep.unref();
  app.addHook('onClose', () => clearInterval(sweep));
  await app.ready();
  return { app, store };
}

/**
 * An error as FastAPI answered it, with our `error` kept beside it: issues (validation) become
 * `detail: [{loc, msg, type}]` (`loc` from the issue path, `type` our code), anything else `detail: message`.
 */
export function originalErrorBody(e: ApiError): { detail: unknown; error: ReturnType<ApiError['body']>['error'] } {
  const issues = Array.isArray(e.details) ? (e.details as { path?: unknown; message?: unknown }[]) : null;
  const detail =
    issues && (e.status === 422 || e.status === 400)
      ? issues.map((i) => {
          const path = typeof i.path === 'string' && i.path !== '' ? i.path.split('.') : [];
          return {
            loc: path[0] === 'body' || path[0] === 'querystring' || path[0] === 'params' ? path : ['body', ...path],
            msg: String(i.message ?? e.message),
            type: e.code,
          };
        })
      : e.status === 422
        ? [{ loc: ['body'], msg: e.message, type: e.code }]
        : e.message;
  return { detail, error: e.body().error };
}
