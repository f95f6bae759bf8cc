/**
 * Who is calling. Every request's client certificate is checked against the on-boarding rules
 * (one that passed the TLS handshake may still break them); a route that serves a dataset,
 * verifies against one or says it needs an identity (`requiresIdentity`) then has its caller
 * identified by the configured strategy (`Identifier`), as `request.identity`, or is refused
 * with its 401. The plugins after this one (rate limit, authorisation, audit) act on requests
 * that have an identity.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
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
    const identifyCaller = async (
      request: FastifyRequest,
      clientCertificate: ReturnType<typeof presentedCertificate>,
    ) => {
      request.identity = await inSpan('identify', { 'lev.auth.mode': mode }, () =>
        identify({ headers: request.headers, socket: request.socket, clientCertificate }),
      );
    };
    // A callback rather than an async function: a public route (a status list, the issuer's keys) costs no promise.
    app.addHook('onRequest', (request, reply, done) => {
      const certificate = presentedCertificate(request.socket);
      if (certificate?.problem) {
        reply.header('connection', 'close');
        return done(forbidden(`The client certificate is not accepted: ${certificate.problem.detail}`));
      }
      const route = request.routeOptions.config;
      if (!route.dataset && !route.verifies && !route.requiresIdentity) return done();
      identifyCaller(request, certificate).then(() => done(), done);
    });
  },
  { name: 'lev-identity', dependencies: ['lev-response-headers'] },
);
