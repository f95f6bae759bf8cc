/**
 * Builds the HTTP application from its configuration and its store. Nothing
 * here runs at import; `server.ts` is the only place that listens.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config.ts';
import { type AuditTrail, createAuditTrail } from './audit/trail.ts';
import { type Identifier, authoriseDataset, createIdentifier } from './auth/identify.ts';
import { auditRoutes } from './http/audit-routes.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { healthRoutes } from './http/health.ts';
import { metricsPlugin } from './http/metrics.ts';
import { openApiDocument, openApiRoutes } from './http/openapi.ts';
import { EXPECTED } from './http/parameters.ts';
import { recordRoutes } from './http/record-routes.ts';
import { isIsoDate } from './records/dates.ts';
import { views } from './records/views.ts';
import { compileView } from './render/view.ts';
import type { RecordStore } from './store/record-store.ts';
import { version } from './version.ts';

export interface AppDependencies {
  readonly store: RecordStore;
  /** Where accesses are recorded; by default the audit table of the store's database. */
  readonly audit?: AuditTrail;
  /** A pino instance to log to (tests capture the stream); by default one is made at the configured level. */
  readonly logger?: FastifyServerOptions['loggerInstance'];
  /** Who is calling; by default the strategy of the configured AUTH_MODE (`createIdentifier`). */
  readonly identify?: Identifier;
}

/** Headers every answer carries. */
const RESPONSE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
} as const;

export async function buildApp(
  config: Config,
  { store, logger, audit = createAuditTrail(store.driver), identify = createIdentifier(config) }: AppDependencies,
) {
  // Without settings (a test's own identifier), datasets are closed as in the real modes.
  const authMode = config.auth?.mode ?? 'oidc';
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: { level: config.logLevel } }),
    // Request URLs carry names and dates: Fastify's own request lines would log them.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Longer than any request line Node accepts (16 KiB of headers), so an over-long id
    // reaches validation, which names the parameter, instead of the router's bare 414.
    routerOptions: { maxParamLength: 16_384 },
    // Raised before routing, so neither the hooks nor the error handler see it.
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL' ? 'The URL could not be read: it holds a malformed percent-escape' : 'The request could not be read';
      (reply as FastifyReply)
        .code(400)
        .headers({ ...RESPONSE_HEADERS, 'x-request-id': request.id, 'content-type': 'application/json' })
        .send({ code: 'BadRequest', message });
    },
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: false },
      onCreate: (ajv) => {
        ajv.addFormat('date', { type: 'string', validate: isIsoDate });
        ajv.addKeyword(EXPECTED);
      },
    },
  });

  const guardMethods = installErrorHandling(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const route = request.routeOptions.config;
    if (!route.dataset && !route.requiresIdentity) return;
    request.identity = await identify(request);
    // Before the query is even validated: a caller without the dataset's role learns nothing of it.
    if (route.dataset) authoriseDataset(authMode, request.identity, route.dataset);
  });

  app.addHook('onSend', async (_request, reply) => {
    // The existing service labels JSON plain `application/json` (JSON has no charset parameter, RFC 8259),
    // and tools checking the published interface compare the label exactly.
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
    reply.headers(RESPONSE_HEADERS);
  });

  app.addHook('onResponse', async (request, reply) => {
    // Route pattern, never the URL: the URL holds the searched names and dates.
    request.log.info(
      { route: request.routeOptions.url ?? 'unrouted', method: request.method, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });

  const compiled = views.map(compileView);
  await app.register(metricsPlugin);
  await app.register(healthRoutes, { store });
  await app.register(openApiRoutes, { document: openApiDocument(compiled, version) });
  await app.register(recordRoutes, { views: compiled, store, audit, maxResults: config.maxResults });
  await app.register(auditRoutes, { db: store.driver });
  app.addHook('onClose', () => audit.flush());
  await app.after();
  guardMethods();
  return app;
}
