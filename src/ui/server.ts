/**
 * The caseworkers' pages as a process of their own, in front of the API (`lev-api ui`): the same
 * pages the mock serves at /ui, calling the API over HTTP(S) as each signed-in caseworker. In
 * production, caseworkers sign in at the OIDC issuer and the API is called with their own access
 * token (and, where the API asks for one, the pages' client certificate).
 */
import { rootCertificates } from 'node:tls';
import { createLevClient } from '@lev-api/client';
import closeWithGrace from 'close-with-grace';
import Fastify, { type FastifyServerOptions } from 'fastify';
import { Agent, fetch as undiciFetch } from 'undici';
import type { UiConfig } from '../config/ui.ts';
import { securityHeaders } from '../http/headers.ts';
import { createTransport, serverOptions } from '../http/transport.ts';
import { parseQuery } from '../http/query-string.ts';
import { requestLogPlugin } from '../http/plugins/request-log.ts';
import type { RecordDescription } from '../records/define.ts';
import { version } from '../version.ts';
import { routeNotFound } from '../errors.ts';
import type { CredentialPagesOptions } from './journeys/credentials.ts';
import { createOidcSignIn } from './oidc-sign-in.ts';
import { uiRoutes } from './routes.ts';
import { openSessions } from './sessions.ts';
import { traceRequests } from '../tracing/requests.ts';

interface UiAppDependencies {
  /** A pino instance to log to (tests capture the stream); by default one is made at the configured level. */
  readonly logger?: FastifyServerOptions['loggerInstance'];
  /** The record types the API serves, read once by the entry point. */
  readonly descriptions: readonly RecordDescription[];
}

export async function buildUiApp(config: UiConfig, { logger, descriptions }: UiAppDependencies) {
  const tls = Boolean(config.tls);
  // The API's transport: the same deadlines and places for connections (docs/production.md), and
  // the same refusals of what the parser cannot read.
  const transport = createTransport(config.tls, config.connections);
  const app = Fastify({
    ...serverOptions(transport, tls, logger, config.logLevel),
    // The API's strict reading of query strings, so that the pages read a link the same in both processes.
    routerOptions: { querystringParser: parseQuery },
  });
  transport.attach(app.server, app.log);
  // Its requests call the API: those outside the sample say so, so the API leaves them out too.
  traceRequests(app, config.tracing, { passOnUnsampled: true });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(securityHeaders(request.url, tls));
    done(null, payload);
  });
  await app.register(requestLogPlugin);

  const { apiTls } = config;
  const dispatcher = apiTls
    ? new Agent({
        connect: {
          ca: apiTls.ca ? [...rootCertificates, apiTls.ca.toString('utf8')] : undefined,
          cert: apiTls.cert,
          key: apiTls.key,
        },
      })
    : undefined;
  if (dispatcher) app.addHook('onClose', () => dispatcher.close());
  const api = createLevClient({
    baseUrl: config.apiUrl,
    dispatcher,
    headers: { 'user-agent': `lev-api-ui/${version}` },
  });
  const sessions = openSessions(config.sessions, app.log);
  app.addHook('onClose', () => sessions.close());
  await app.register(uiRoutes, {
    api,
    sessions: sessions.store,
    idleMs: config.sessions.idleMs,
    secure: tls,
    records: descriptions,
    signIn: config.oidc ? { mode: 'oidc', oidc: createOidcSignIn(config.oidc) } : { mode: 'mock' },
    ...(config.credentialIssuer
      ? { credentials: credentialChecks(config.credentialIssuer, dispatcher, !config.oidc) }
      : {}),
  });
  app.get('/', (_request, reply) => reply.redirect('/ui', 302));
  // For a load balancer: the process answers (the API has its own health).
  app.get('/healthz', (_request, reply) => reply.type('application/json').send('{"status":"ok"}'));
  // As the API's: every answer but a page or a file is {"code", "message"}.
  app.setNotFoundHandler((request, reply) => {
    const { code, message } = routeNotFound(request.url.split('?')[0]);
    return reply.code(404).type('application/json').send({ code, message });
  });
  return app;
}

/**
 * The certificate check against the configured issuer: its keys and status lists fetched over the
 * API's TLS settings (often the same host), an http:// issuer believed only with mock sign-in.
 */
function credentialChecks(issuer: string, dispatcher: Agent | undefined, mock: boolean): CredentialPagesOptions {
  const fetcher = dispatcher
    ? (((url: string | URL, init?: RequestInit) =>
        undiciFetch(String(url), { ...(init as object), dispatcher })) as unknown as typeof fetch)
    : fetch;
  return { issuer: () => issuer, fetch: fetcher, allowHttp: mock && issuer.startsWith('http://') };
}

/**
 * Runs the pages (for `descriptions`, read by the entry point) until SIGTERM/SIGINT, then finishes the
 * requests in progress.
 */
export async function serveUi(config: UiConfig, descriptions: readonly RecordDescription[]) {
  const app = await buildUiApp(config, { descriptions });
  app.log.info(
    {
      api: config.apiUrl,
      signIn: config.oidc ? 'oidc' : 'mock',
      sessions: config.sessions.redis ? 'redis' : 'memory',
      tls: Boolean(config.tls),
    },
    'pages',
  );
  if (!config.oidc) app.log.warn('AUTH_MODE=mock: caseworkers choose who they are; only for an API in mock mode');
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    throw error;
  }
  closeWithGrace({ delay: 10_000 }, async () => {
    await app.close();
  });
  return app;
}
