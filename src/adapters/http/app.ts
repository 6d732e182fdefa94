/**
 * The trainer HTTP API (issue #13): fastify 5 with zod schemas on every route (fastify-type-provider-zod)
 * and the generated OpenAPI document at `/openapi.json`. `buildApp` returns an app that is not listening
 * yet (`app.listen`), so tests and the CLI share it. Every error is `{error: {code, message}}`
 * (errors.ts): 4xx for anything a client sent, 500 only for a bug of ours.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { hasZodFastifySchemaValidationErrors, jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ApiError, FASTIFY_CODES } from './errors.js';
import { registerRoutes } from './routes.js';
import { SessionStore } from './sessions.js';

/** Options of {@link buildApp}: the config's `server` section plus test hooks. */
export interface AppOptions {
  server: { maxSessions: number; idleTtlSeconds: number; bodyLimitBytes: number; debugState: boolean };
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
  const app = Fastify({ bodyLimit: opts.server.bodyLimitBytes, logger: opts.logger ?? false, keepAliveTimeout: 72_000 });
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
  const store = new SessionStore({ maxSessions: opts.server.maxSessions, idleTtlMs: opts.server.idleTtlSeconds * 1000, now: opts.now });

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'GPU Arena trainer API', description: 'The arena engine over HTTP with sessions (the original OpenEnv routes, plus self-play seats).', version: '1.0.0' },
    },
    transform: jsonSchemaTransform,
  });

  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) return reply.status(err.status).send(err.body());
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'request';
      const issues = err.validation.map((v) => ({ path: `${where}${v.instancePath.replaceAll('/', '.')}`.replace(/\.$/, ''), message: v.message ?? 'invalid' }));
      const code = where === 'body' && issues.some((i) => i.path === 'body') ? 'invalid_body' : 'invalid_request';
      const body = new ApiError(400, code, issues.map((i) => `${i.path}: ${i.message}`).join('; '), issues);
      return reply.status(400).send(body.body());
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code = (err.code && FASTIFY_CODES[err.code]) || 'invalid_request';
      const message = code === 'body_too_large' ? `the body is larger than ${opts.server.bodyLimitBytes} bytes (server.bodyLimitBytes)` : err.message;
      return reply.status(status).send(new ApiError(status, code, message).body());
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(new ApiError(500, 'internal_error', 'internal error (a bug of the server; it is logged)').body());
  });
  app.setNotFoundHandler((req, reply) => reply.status(404).send(new ApiError(404, 'not_found', `no route ${req.method} ${req.url}`).body()));

  registerRoutes(app, { store, debugState: opts.server.debugState });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());

  const sweep = setInterval(() => store.sweep(), Math.min(60_000, opts.server.idleTtlSeconds * 1000));
  sweep.unref();
  app.addHook('onClose', () => clearInterval(sweep));
  await app.ready();
  return { app, store };
}
