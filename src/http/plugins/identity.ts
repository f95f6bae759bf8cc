/**
 * Who is calling. Every request's client certificate is checked against the on-boarding rules
 * (one that passed the TLS handshake may still break them); a route that serves a dataset,
 * verifies against one or says it needs an identity (`requiresIdentity`) then has its caller
 * identified by the configured strategy (`Identifier`), as `request.identity`, or is refused
 * with its 401. The plugins after this one (rate limit, authorisation, audit) act on requests
 * that have an identity.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { presentedCertificate } from '../../auth/client-certificate.ts';
import { forbidden } from '../../errors.ts';
import { inSpan } from '../../tracing/spans.ts';
import type { Identifier, Identity } from '../../model/identity.ts';
import type {} from '../route-config.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, on routes that need one; undefined on the others (health, metrics, the document). */
    identity?: Identity;
  }
}

interface IdentityOptions {
  readonly identify: Identifier;
  /** The AUTH_MODE, as the `identify` span names it. */
  readonly mode: string;
}

export const identityPlugin = fp(
  async function identity(app: FastifyInstance, { identify, mode }: IdentityOptions) {
    app.decorateRequest('identity', undefined);
    // Callbacks rather than async functions: a public route (a status list, the issuer's keys) costs no
    // promise, and an identifier that answers at once (mock headers, a trusted proxy's) costs none either.
    app.addHook('onRequest', (request, reply, done) => {
      const clientCertificate = presentedCertificate(request.socket);
      if (clientCertificate?.problem) {
        reply.header('connection', 'close');
        return done(forbidden(`The client certificate is not accepted: ${clientCertificate.problem.detail}`));
      }
      const route = request.routeOptions.config;
      if (!route.dataset && !route.verifies && !route.requiresIdentity) return done();
      const identified = (identity: Identity) => {
        request.identity = identity;
        done();
      };
      let identity: ReturnType<Identifier>;
      try {
        identity = inSpan('identify', { 'lev.auth.mode': mode }, () =>
          identify({ headers: request.headers, socket: request.socket, clientCertificate }),
        );
      } catch (error) {
        return done(error as Error);
      }
      if (identity instanceof Promise) identity.then(identified, done);
      else identified(identity);
    });
  },
  { name: 'lev-identity', dependencies: ['lev-response-headers'] },
);
