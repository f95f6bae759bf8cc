/**
 * The caseworkers' pages served by the API's own process (the mock), and the typed client's way
 * into the API there: each request goes through Fastify's inject, the whole of the API's handling
 * (identity, roles, validation, audit) and no socket. A separate `lev-api ui` process uses HTTP
 * instead (server.ts).
 */
import { type Auth, type LevClient, createLevClient } from '@lev-api/client';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { UiSessionConfig } from '../config/sessions.ts';
import type {} from '../http/plugins/credentials.ts';
import type { RecordDescription } from '../records/define.ts';
import { uiRoutes } from './routes.ts';
import { openSessions } from './sessions.ts';

export const IN_PROCESS_URL = 'http://lev-api.in-process';

export function injectFetch(app: FastifyInstance): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const answer = await app.inject({
      method: request.method as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(request.headers),
      // A POST's body (a wallet offer's) goes with it.
      ...(request.body ? { payload: Buffer.from(await request.arrayBuffer()) } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value === undefined) continue;
      for (const one of Array.isArray(value) ? value : [value]) headers.append(name, String(one));
    }
    const empty = answer.statusCode === 204 || answer.statusCode === 304;
    return new Response(empty ? null : new Uint8Array(answer.rawPayload), { status: answer.statusCode, headers });
  };
}

interface InProcessPagesOptions {
  readonly sessions: UiSessionConfig;
  /** Whether the API is reached over HTTPS (the session cookie is then Secure). */
  readonly secure: boolean;
  readonly records: readonly RecordDescription[];
}

/**
 * The pages, calling this very API as each signed-in caseworker (mock sign-in). Not encapsulated
 * (fastify-plugin): its client injects into the whole app, and its sessions close with it.
 */
export const inProcessPagesPlugin = fp(
  async function inProcessPages(app: FastifyInstance, { sessions, secure, records }: InProcessPagesOptions) {
    const inProcess = injectFetch(app);
    // Made at the first page: making it reads the platform's Request class, which loads Node's fetch
    // (a few tens of milliseconds of the mock's start) for pages most starts never serve.
    let client: LevClient | undefined;
    const api = {
      withAuth: (auth: Auth) =>
        (client ??= createLevClient({ baseUrl: IN_PROCESS_URL, fetch: inProcess, retry: { attempts: 1 } })).withAuth(
          auth,
        ),
    };
    const kept = openSessions(sessions, app.log);
    app.addHook('onClose', () => kept.close());
    await app.register(uiRoutes, {
      api,
      sessions: kept.store,
      idleMs: sessions.idleMs,
      secure,
      records,
      signIn: { mode: 'mock' },
      // The pages check digital certificates against this very process's keys and status lists.
      ...(app.hasDecorator('credentialIssuer')
        ? {
            credentials: {
              issuer: app.credentialIssuer,
              allowHttp: true,
              fetch: ((input, init) => inProcess(new Request(input, init))) as typeof fetch,
            },
          }
        : {}),
    });
  },
  { name: 'lev-in-process-pages' },
);
