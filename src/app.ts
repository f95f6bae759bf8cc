/**
 * Builds the HTTP application from its configuration and its store. Nothing
 * here runs at import; `server.ts` is the only place that listens.
 */
import fastifyCors from '@fastify/cors';
import Fastify, { type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { Config } from './config/index.ts';
import { createIdentifier, enforcesRoles } from './auth/identify.ts';
import { auditRoutes } from './http/audit-routes.ts';
import { credentialRoutes } from './http/credential-routes.ts';
import { walletPlugin } from './http/wallet/plugin.ts';
import { createCredentialIssuer } from './credentials/issue.ts';
import { issuerKeys } from './credentials/keys.ts';
import { documentSignerWhenNeeded } from './credentials/mdoc-certificates.ts';
import { subscriptionRoutes } from './http/subscription-routes.ts';
import { eventRoutes } from './http/event-routes.ts';
import { waitingTotal } from './http/waiting-readers.ts';
import { webhookRoutes } from './http/webhook-routes.ts';
import { installErrorHandling } from './http/error-handler.ts';
import { securityHeaders } from './http/headers.ts';
import { logRequests } from './http/request-log.ts';
import { healthRoutes } from './http/health.ts';
import { metricsPlugin } from './http/metrics.ts';
import { replicaMetrics } from './http/replica-metrics.ts';
import { openApiDocument, openApiRoutes } from './http/openapi.ts';
import { createLevClient } from '@lev-api/client';
import { IN_PROCESS_URL, injectFetch } from './ui/in-process.ts';
import { uiRoutes } from './ui/routes.ts';
import { openSessions } from './ui/sessions.ts';
import { EXPECTED } from './http/parameters.ts';
import { parseQuery, refuseMalformedQuery } from './http/query-string.ts';
import { queryRulesKeyword } from './http/query-rules.ts';
import { TRUNCATED_HEADER, fromStore } from './http/route-config.ts';
import { cwtStatusList, statusLists } from './http/status-lists.ts';
import { IACAS_PATH, walletDocumentRoutes } from './http/wallet-documents.ts';
import { recordRoutes } from './http/record-routes.ts';
import { auditPlugin } from './http/plugins/audit.ts';
import { authorisationPlugin } from './http/plugins/authorisation.ts';
import { identityPlugin } from './http/plugins/identity.ts';
import { rateLimitPlugin } from './http/plugins/rate-limit.ts';
import { responseHeadersPlugin } from './http/plugins/response-headers.ts';
import { suggestionRoutes } from './http/suggestion-routes.ts';
import { watchEnumeration } from './http/enumeration-watch.ts';
import { verificationRoutes } from './http/verification-routes.ts';
import { MAX_URL_LENGTH, createTransport, serverOptions } from './http/transport.ts';
import { isIsoDate } from './records/dates.ts';
import type { RecordDescription } from './records/define.ts';
import { viewsOf } from './records/views.ts';
import { traceRequests } from './tracing/requests.ts';
import { createRenderCache } from './render/cache.ts';
import { compileView } from './render/view.ts';
import type { Identifier } from './types/identity.ts';
import type { Backend } from './types/store.ts';
import type { CloseMatcher } from './match/suggest.ts';
import { version } from './version.ts';

interface AppDependencies {
  /** Records, the audit trail and its report. */
  readonly backend: Pick<Backend, 'records' | 'audit' | 'report' | 'events' | 'subscriptions'> &
    Partial<Pick<Backend, 'webhooks' | 'credentials' | 'wallet'>> & {
      /** Where close matches are found, when not on the event loop from `records` (PostgresBackend: a thread holding the index). */
      readonly closeMatches?: CloseMatcher;
    };
  /** A pino instance to log to (tests capture the stream); by default one is made at the configured level. */
  readonly logger?: FastifyServerOptions['loggerInstance'];
  /** Who is calling; by default the strategy of the configured AUTH_MODE (`createIdentifier`). */
  readonly identify?: Identifier;
  /** The record types served: the ones the backend was opened with, read once by the entry point. */
  readonly descriptions: readonly RecordDescription[];
}

/** The URL a listening server is reached at from this machine: a wildcard address read as localhost. */
function listeningUrl(address: ReturnType<import('node:net').Server['address']>, tls: boolean): string {
  const scheme = tls ? 'https' : 'http';
  if (!address || typeof address !== 'object') return `${scheme}://localhost`;
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? 'localhost'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `${scheme}://${host}:${address.port}`;
}

export async function buildApp(
  config: Config,
  {
    backend: {
      records: store,
      audit,
      report,
      events,
      subscriptions,
      webhooks,
      credentials,
      wallet,
      closeMatches: findCloseMatches,
    },
    logger,
    identify = createIdentifier(config),
    descriptions,
  }: AppDependencies,
) {
  const enforceRoles = enforcesRoles(config.auth);
  const tls = Boolean(config.tls);
  // HTTP or HTTPS (with client certificates), and the limits on headers and URLs applied before any work.
  const transport = createTransport(config.tls, config.connections);
  const app = Fastify({
    ...serverOptions(transport, tls, logger, config.logLevel),
    // Longer than any URL let through (MAX_URL_LENGTH), so an over-long id reaches
    // validation, which names the parameter, instead of the router's bare 414.
    routerOptions: { maxParamLength: MAX_URL_LENGTH, querystringParser: parseQuery },
    // Raised before routing, so neither the hooks nor the error handler see it.
    frameworkErrors: (error, request, reply) => {
      const message =
        error.code === 'FST_ERR_BAD_URL'
          ? 'The URL could not be read: it holds a malformed percent-escape'
          : 'The request could not be read';
      (reply as FastifyReply)
        .code(400)
        .headers({
          ...securityHeaders(request.url, tls),
          'x-request-id': request.id,
          'request-id': request.id,
          'content-type': 'application/json',
        })
        .send({ code: 'BadRequest', message });
    },
    ajv: {
      customOptions: { coerceTypes: false, removeAdditional: false },
      onCreate: (ajv) => {
        ajv.addFormat('date', { type: 'string', validate: isIsoDate });
        ajv.addKeyword(EXPECTED);
        ajv.addKeyword(queryRulesKeyword);
      },
    },
  });

  transport.attach(app.server, app.log);
  await traceRequests(app, config.tracing);
  const cors = config.corsOrigins?.length > 0;
  const guardMethods = installErrorHandling(app, { cors });
  if (cors) {
    await app.register(fastifyCors, {
      origin: [...config.corsOrigins],
      methods: ['GET', 'HEAD'],
      allowedHeaders: [
        'Authorization',
        'X-Auth-Username',
        'X-Auth-Aud',
        'X-Auth-Audience',
        'X-Auth-Roles',
        'X-Auth-Groups',
        'X-Feed-Position',
      ],
      // What a page may read of an answer besides the basic headers.
      exposedHeaders: ['x-request-id', 'request-id', TRUNCATED_HEADER, 'retry-after'],
      maxAge: 600,
    });
  }
  // Order matters: each plugin's onRequest hook runs after those of the plugins above it.
  await app.register(responseHeadersPlugin, { tls });
  await app.register(identityPlugin, { identify, mode: config.auth?.mode ?? 'none' });
  await app.register(rateLimitPlugin, { limit: config.rateLimit });
  await app.register(authorisationPlugin, { enforceRoles });
  await app.register(auditPlugin, { audit });

  logRequests(app);

  // A query parameter that could not be decoded is named in a 400 (after the 401 and 403 of the plugins above).
  app.addHook('preValidation', refuseMalformedQuery);

  const compiled = viewsOf(descriptions).map(compileView);
  // Before every route: the document is generated from the routes registered after it.
  await app.register(openApiRoutes, {
    document: openApiDocument(compiled, version),
    identityHeaders: config.auth?.mode !== 'oidc',
  });
  await app.register(metricsPlugin);
  await app.register(healthRoutes, { store });
  if (store.readPaths) await app.register(replicaMetrics, { readPaths: store.readPaths });
  const rendered = createRenderCache(compiled, config.renderCacheBytes);
  await app.register(recordRoutes, { views: compiled, store, maxResults: config.maxResults, rendered });
  const enumeration = watchEnumeration(app, config.verification.falseShare);
  await app.register(verificationRoutes, {
    records: descriptions,
    candidates: (type, key, limit, padTo, options) => store.verificationCandidates(type, key, limit, padTo, options),
    enumeration,
  });
  await app.register(suggestionRoutes, {
    views: compiled,
    store,
    find: findCloseMatches,
    minProbability: config.suggestMinProbability,
    rendered,
    enumeration,
  });
  await app.register(auditRoutes, { report, types: descriptions.map((record) => record.name) });
  await app.register(eventRoutes, {
    feed: events,
    subscriptions,
    descriptions,
    views: compiled,
    // The mock's callers read every event without on-boarding, as they read every dataset.
    subscribeEveryone: config.auth?.mode === 'mock',
    retentionDays: config.events.retentionDays,
    waiting: {
      perClient: config.events.waiting.perClient,
      total: waitingTotal(config.connections.maxConnections, config.events.waiting.share),
    },
    ...(webhooks ? { webhooks } : {}),
  });
  if (webhooks) await app.register(webhookRoutes, { webhooks });
  // The mock's issuer is the address it listens at (no CREDENTIAL_ISSUER_URL there), read once it
  // listens and kept: reading it is a system call, and every credential and status list names it.
  let listeningAt: string | undefined;
  const issuerUrl = () =>
    config.credentials.issuer ??
    listeningAt ??
    (app.server.listening ? (listeningAt = listeningUrl(app.server.address(), tls)) : listeningUrl(null, tls));
  if (credentials && config.credentials.enabled) {
    const keys = await issuerKeys(config.credentials.keys);
    if (keys.madeAtStart) {
      app.log.info(
        { kid: keys.current.kid },
        'credentials: no issuer key configured, so this process made one at start; relying parties find it at /.well-known/jwt-vc-issuer',
      );
    }
    const lists = statusLists({
      statuses: credentials,
      key: () => keys.current,
      ttlS: config.credentials.statusTtlS,
      fromStore,
    });
    const mdocSigner = documentSignerWhenNeeded(
      config.credentials.mdoc,
      config.credentials.issuer ? { issuerUrl: config.credentials.issuer } : {},
    );
    await app.register(credentialRoutes, {
      views: compiled,
      store,
      statuses: credentials,
      lists,
      keys,
      issuer: createCredentialIssuer(keys, config.credentials.validityS),
      issuerUrl,
      cwt: cwtStatusList({ statuses: credentials, signer: mdocSigner, ttlS: config.credentials.statusTtlS, fromStore }),
    });
    await app.register(walletDocumentRoutes, { keys, signer: mdocSigner, issuerUrl });
    if (wallet) {
      await app.register(walletPlugin, {
        config: config.wallet,
        views: compiled,
        records: store,
        statuses: credentials,
        wallet,
        keys,
        signer: mdocSigner,
        validityS: config.credentials.validityS,
        issuerUrl,
        // Where a verifier finds the IACAs an mdoc's document signer chains to.
        metadataExtra: (issuer) => ({ mdoc_iacas_uri: `${issuer}${IACAS_PATH}` }),
      });
    }
    // A list just signed is answered before Fastify, unless tracing or CORS, which act on every
    // request Fastify answers, are on: then Fastify answers it too.
    if (!config.tracing && !cors) transport.answerEarly(lists.answerEarly({ issuer: issuerUrl, tls, log: app.log }));
  }
  await app.register(subscriptionRoutes, { subscriptions, webhooks });
  if (config.auth?.mode === 'mock') {
    // The caseworkers' pages, calling this very API as each signed-in caseworker.
    const api = createLevClient({ baseUrl: IN_PROCESS_URL, fetch: injectFetch(app), retry: { attempts: 1 } });
    const sessions = openSessions(config.ui, app.log);
    app.addHook('onClose', () => sessions.close());
    const inProcess = injectFetch(app);
    await app.register(uiRoutes, {
      api,
      sessions: sessions.store,
      idleMs: config.ui.idleMs,
      secure: tls,
      records: descriptions,
      signIn: { mode: 'mock' },
      // The pages check digital certificates against this very process's keys and status lists.
      ...(credentials && config.credentials.enabled
        ? {
            credentials: {
              issuer: issuerUrl,
              allowHttp: true,
              fetch: ((input, init) => inProcess(new Request(input, init))) as typeof fetch,
            },
          }
        : {}),
    });
  }
  await app.after();
  guardMethods();
  return app;
}
