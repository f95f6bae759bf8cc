/**
 * Whether the identified caller may use the route, by its config: a dataset's records need the
 * dataset's role (close matches the `suggest` role as well), a verification the dataset's
 * `-verify` role or its own. Checked before the query is even validated, so that a caller
 * without the role learns nothing of it. Routes with a rule of their own (the audit report,
 * digital certificates) call `request.authorise` and `request.authoriseDataset`; the rules
 * themselves are written once, in `auth/identify.ts`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { authorise, authoriseDataset, authoriseSuggestion, authoriseVerification } from '../../auth/identify.ts';
import type { Identity } from '../../model/identity.ts';
import type {} from './identity.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether roles are checked (`enforcesRoles`): where they are not, every identified caller may read everything. */
    readonly rolesEnforced: boolean;
  }
  interface FastifyRequest {
    /** Refuses (403) a caller without `role`; `what` begins the message: "The audit report needs the 'audit' role". */
    authorise(role: string, what: string): void;
    /** Refuses (403) a caller without the dataset's role. */
    authoriseDataset(dataset: string): void;
  }
}

interface AuthorisationOptions {
  readonly enforceRoles: boolean;
}

export const authorisationPlugin = fp(
  async function authorisation(app: FastifyInstance, { enforceRoles }: AuthorisationOptions) {
    app.decorate('rolesEnforced', enforceRoles);
    app.decorateRequest('authorise', function (this: FastifyRequest, role: string, what: string) {
      authorise(enforceRoles, this.identity, role, what);
    });
    app.decorateRequest('authoriseDataset', function (this: FastifyRequest, dataset: string) {
      authoriseDataset(enforceRoles, this.identity as Identity, dataset);
    });
    // A callback rather than an async function: no promise a request.
    app.addHook('onRequest', (request, _reply, done) => {
      const route = request.routeOptions.config;
      const identity = request.identity as Identity;
      try {
        if (route.dataset && route.operation === 'suggest') authoriseSuggestion(enforceRoles, identity, route.dataset);
        else if (route.dataset) authoriseDataset(enforceRoles, identity, route.dataset);
        else if (route.verifies) authoriseVerification(enforceRoles, identity, route.verifies);
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    });
  },
  { name: 'lev-authorisation', dependencies: ['lev-identity'] },
);
