/**
 * The headers every answer carries, refusals included: the request's id, the security headers,
 * JSON labelled as the existing service labels it, and a route's Cache-Control on its 200s.
 * Registered first among the request plugins, so that a 401 or 403 of the ones after it carries
 * its request id too.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { securityHeaders } from '../headers.ts';
import type {} from '../route-config.ts';

interface ResponseHeadersOptions {
  /** Whether the service is reached over HTTPS (Strict-Transport-Security). */
  readonly tls: boolean;
}

// Hooks of every request take a callback rather than being async: no promise a request.
export const responseHeadersPlugin = fp(
  async function responseHeaders(app: FastifyInstance, { tls }: ResponseHeadersOptions) {
    app.addHook('onRequest', (request, reply, done) => {
      // Request-Id as the existing service (restify) sent it; x-request-id as proxies and tracing expect.
      reply.header('x-request-id', request.id).header('request-id', request.id);
      done();
    });

    app.addHook('onSend', (request, reply, payload, done) => {
      // The existing service labels JSON plain `application/json` (JSON has no charset parameter, RFC 8259),
      // and tools checking the published interface compare the label exactly.
      if (reply.getHeader('content-type') === 'application/json; charset=utf-8')
        reply.header('content-type', 'application/json');
      reply.headers(securityHeaders(request.url, tls));
      const cacheControl = request.routeOptions.config.cacheControl;
      if (cacheControl && reply.statusCode === 200) reply.header('cache-control', cacheControl);
      done(null, payload);
    });
  },
  { name: 'lev-response-headers' },
);
