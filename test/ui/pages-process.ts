/**
 * The pages' own process (`lev-api ui`) for tests: started on loopback in front of an API, and
 * the whole OpenID Connect set-up (a real issuer, an API in oidc mode, the pages signing in there).
 */
import { once } from 'node:events';
import { createServer } from 'node:net';
import pino from 'pino';
import { loadUiConfig } from '../../src/config/ui.ts';
import { buildUiApp } from '../../src/ui/server.ts';
import { AUDIENCE, PAGES_CLIENT, startIssuer } from '../auth/issuer.ts';
import { filledStore, startApp, testConfig } from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';

type Context = Parameters<typeof startApp>[0];

/**
 * A port free now, for a server whose address must be known before it starts (the issuer registers the
 * pages' callback).
 */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The pages listening on loopback, closed when the test ends; their log lines go to `lines` when given. */
export async function startPages(t: Context, env: Record<string, string>, port = 0, lines?: string[]) {
  const config = loadUiConfig({ LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: String(port), ...env });
  const logger = lines ? pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }) : undefined;
  const app = await buildUiApp(config, { logger, descriptions: records });
  await app.listen({ port: config.port, host: '127.0.0.1' });
  t.after(() => app.close());
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

/**
 * The issuer, an API in oidc mode on the mock's records, and the pages signing in there; access tokens
 * living `ttl` seconds.
 */
export async function oidcPages(t: Context, ttl?: number, lines?: string[]) {
  const port = await freePort();
  const pagesUrl = `http://127.0.0.1:${port}`;
  const issuer = await startIssuer({ pages: { redirectUri: `${pagesUrl}/ui/auth/callback`, accessTokenTtl: ttl } });
  t.after(() => issuer.close());
  const store = await filledStore(t, 'memory');
  const api = await startApp(
    t,
    store,
    testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: AUDIENCE }),
  );
  const env = {
    UI_API_URL: api.url,
    AUTH_MODE: 'oidc',
    OIDC_ISSUER: issuer.url,
    OIDC_AUDIENCE: AUDIENCE,
    UI_PUBLIC_URL: pagesUrl,
    UI_OIDC_CLIENT_ID: PAGES_CLIENT.id,
    UI_OIDC_CLIENT_SECRET: PAGES_CLIENT.secret,
  };
  await startPages(t, env, port, lines);
  return { issuer, store, pages: pagesUrl };
}
