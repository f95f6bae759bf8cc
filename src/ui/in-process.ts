/**
 * The typed client's way into the API when the pages are served by the API's own process (the
 * mock): each request goes through Fastify's inject, the whole of the API's handling (identity,
 * roles, validation, audit) and no socket. A separate `lev-api ui` process uses HTTP instead.
 */
import type { FastifyInstance } from 'fastify';

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
