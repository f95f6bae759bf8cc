/**
 * One line a request, after it is answered: the route pattern, never the URL, which holds the
 * searched names and dates (and, at the pages' sign-in callback, the issuer's code).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';

interface RequestLine {
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly ms: number;
}

/**
 * The line, under the request's id as Fastify's request logger binds it: for requests Fastify
 * answers, and for those answered before it routes them (status-lists.ts). Not even built when the
 * level leaves it out (LOG_LEVEL=warn under load).
 */
export function logRequestLine(
  log: FastifyBaseLogger,
  reqId: string | undefined,
  { route, method, status, ms }: RequestLine,
): void {
  if (!(log as Logger).isLevelEnabled('info')) return;
  const line = { route, method, status, ms: Math.round(ms) };
  log.info(reqId === undefined ? line : { reqId, ...line }, 'request');
}

// Not encapsulated (fastify-plugin): its onResponse hook must see every route, not only its own.
export const requestLogPlugin = fp(
  async function requestLog(app: FastifyInstance) {
    app.addHook('onResponse', (request, reply, done) => {
      // request.log carries the request's id already.
      logRequestLine(request.log, undefined, {
        route: request.routeOptions.url ?? 'unrouted',
        method: request.method,
        status: reply.statusCode,
        ms: reply.elapsedTime,
      });
      done();
    });
  },
  { name: 'lev-request-log' },
);
