/**
 * Builds the HTTP application from its configuration and its store: the plugins it is made of, in
 * the order a request meets them, then the routes. Nothing here runs at import; `server.ts` is the
 * only place that listens.
 */
import Fastify, { type FastifyServerOptions } from 'fastify';
import { createIdentifier, enforcesRoles } from './auth/identify.ts';
import type { Config } from './config/index.ts';
import { auditRoutes } from './http/audit-routes.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { fastifyOptions } from './http/fastify-options.ts';
import { healthRoutes } from './http/health.ts';
import { lazySchemas } from './http/lazy-schemas.ts';
import { openApiDocument, openApiRoutes } from './http/plugins/openapi.ts';
import {
  auditPlugin,
  authorisationPlugin,
  changeFeedPlugin,
  corsPlugin,
  credentialsPlugin,
  feedLagPlugin,
  feedRetentionPlugin,
  identityPlugin,
  malformedQueryPlugin,
  metricsPlugin,
  rateLimitPlugin,
  recordReadsPlugin,
  replicaMetricsPlugin,
  requestLogPlugin,
  responseHeadersPlugin,
} from './http/plugins/index.ts';
import { subscriptionRoutes } from './http/subscription-routes.ts';
import { createTransport } from './http/transport.ts';
import type { CloseMatcher } from './match/suggest.ts';
import type { Identifier } from './model/identity.ts';
import type { Backend } from './model/store.ts';
import type { RecordDescription } from './records/define.ts';
import { viewsOf } from './records/views.ts';
import { compileView } from './render/view.ts';
import { traceRequests } from './tracing/requests.ts';
import { inProcessPagesPlugin } from './ui/in-process.ts';
import { version } from './version.ts';

interface AppDependencies {
  /** Records, the audit trail and its report. */
  readonly backend: Pick<Backend, 'records' | 'audit' | 'report' | 'events' | 'subscriptions'> &
    Partial<Pick<Backend, 'webhooks' | 'credentials' | 'wallet'>> & {
      /**
       * Where close matches are found, when not on the event loop from `records` (PostgresBackend: a thread
       * holding the index).
       */
      readonly closeMatches?: CloseMatcher;
    };
  /** A pino instance to log to (tests capture the stream); by default one is made at the configured level. */
  readonly logger?: FastifyServerOptions['loggerInstance'];
  /** Who is calling; by default the strategy of the configured AUTH_MODE (`createIdentifier`). */
  readonly identify?: Identifier;
  /** The record types served: the ones the backend was opened with, read once by the entry point. */
  readonly descriptions: readonly RecordDescription[];
}

export async function buildApp(
  config: Config,
  {
    backend: { records: store, audit, report, events, subscriptions, webhooks, credentials, wallet, closeMatches },
    logger,
    identify = createIdentifier(config),
    descriptions,
  }: AppDependencies,
) {
  const tls = Boolean(config.tls);
  const mock = config.auth?.mode === 'mock';
  // HTTP or HTTPS (with client certificates), and the limits on headers and URLs applied before any work.
  const transport = createTransport(config.tls, config.connections);
  const schemas = lazySchemas();
  const app = Fastify({
    ...fastifyOptions(transport, tls, logger, config.logLevel),
    schemaController: { compilersFactory: schemas.compilersFactory },
  });
  // What no request has compiled yet, once the server listens (lazy-schemas.ts). A schema that cannot
  // compile is a fault of this code: told, and the server stopped, rather than a 500 on its route.
  app.addHook('onListen', (done) => {
    schemas.warm().catch((error: Error) => {
      app.log.fatal({ err: { type: error.name, message: error.message } }, 'a route schema does not compile');
      void app.close();
    });
    done();
  });

  transport.attach(app.server, app.log);
  traceRequests(app, config.tracing);
  const cors = config.corsOrigins?.length > 0;
  const guardMethods = installErrorHandling(app, { cors });
  if (cors) await app.register(corsPlugin, { origins: config.corsOrigins });
  // Order matters: each plugin's onRequest hook runs after those of the plugins above it.
  await app.register(responseHeadersPlugin, { tls });
  await app.register(identityPlugin, { identify, mode: config.auth?.mode ?? 'none' });
  await app.register(rateLimitPlugin, { limit: config.rateLimit });
  await app.register(authorisationPlugin, { enforceRoles: enforcesRoles(config.auth) });
  await app.register(auditPlugin, { audit });
  await app.register(requestLogPlugin);
  await app.register(malformedQueryPlugin);

  const views = viewsOf(descriptions).map(compileView);
  // Before every route: the document is generated from the routes registered after it.
  await app.register(openApiRoutes, {
    document: openApiDocument(views, version),
    identityHeaders: config.auth?.mode !== 'oidc',
  });
  await app.register(metricsPlugin);
  await app.register(healthRoutes, { store });
  if (store.readPaths) await app.register(replicaMetricsPlugin, { readPaths: store.readPaths });
  await app.register(recordReadsPlugin, {
    descriptions,
    views,
    store,
    findCloseMatches: closeMatches,
    maxResults: config.maxResults,
    renderCacheBytes: config.renderCacheBytes,
    falseShare: config.verification.falseShare,
    suggestMinProbability: config.suggestMinProbability,
  });
  await app.register(auditRoutes, { report, types: descriptions.map((record) => record.name) });
  await app.register(changeFeedPlugin, {
    feed: events,
    subscriptions,
    webhooks,
    descriptions,
    views,
    settings: config.events,
    maxConnections: config.connections.maxConnections,
    // The mock's callers read every event without on-boarding, as they read every dataset.
    subscribeEveryone: mock,
  });
  await app.register(feedRetentionPlugin, { feed: events, retentionDays: config.events.retentionDays });
  await app.register(feedLagPlugin, { subscriptions, webhooks });
  if (credentials && config.credentials.enabled) {
    await app.register(credentialsPlugin, {
      settings: config.credentials,
      walletSettings: config.wallet,
      views,
      records: store,
      statuses: credentials,
      wallet,
      tls,
      // Tracing and CORS act on every request Fastify answers: with either on, Fastify answers the status lists too.
      ...(config.tracing || cors ? {} : { earlyAnswers: transport }),
    });
  }
  await app.register(subscriptionRoutes, { subscriptions, webhooks });
  // The caseworkers' pages, calling this very API as each signed-in caseworker.
  if (mock) await app.register(inProcessPagesPlugin, { sessions: config.ui, secure: tls, records: descriptions });
  await app.after();
  guardMethods();
  return app;
}
