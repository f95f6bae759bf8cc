/**
 * One line a request, after it is answered: the route pattern, never the URL, which holds the
 * searched names and dates (and, at the pages' sign-in callback, the issuer's code).
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    // Not even built when the level leaves it out (LOG_LEVEL=warn under load).
    if ((request.log as Logger).isLevelEnabled('info')) {
      request.log.info(
        { route: request.routeOptions.url ?? 'unrouted', method: request.method, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    }
    done();
  });
}
