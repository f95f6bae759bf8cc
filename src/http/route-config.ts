/**
 * What a route tells the plugins and hooks around it (identity, authorisation, metrics, the audit
 * trail: `plugins/`) through its config, and small helpers every route module shares, so that
 * none imports another. What the plugins decorate the request with is declared beside each plugin.
 */
import type { FastifyRequest } from 'fastify';
import { unavailableUnless } from '../errors.ts';
import type { AuditOperation } from '../model/audit.ts';
import { FULL_DETAILS_ROLE } from '../model/identity.ts';
import type {} from './plugins/identity.ts';

export type Operation = AuditOperation;

/** What a record route tells the hooks around it (identity, metrics, audit). */
export interface RecordRouteConfig {
  readonly dataset: string;
  readonly operation: Operation;
}

export const TRUNCATED_HEADER = 'x-results-truncated';

declare module 'fastify' {
  interface FastifyContextConfig extends Partial<RecordRouteConfig> {
    /** The dataset a verification route verifies against (it reads nothing out of it). */
    verifies?: string;
    /** The route needs a caller identity even though it serves no dataset. */
    requiresIdentity?: boolean;
    /** The route's Cache-Control, where its answer may be kept (every other answer is no-store). */
    cacheControl?: string;
  }
}

/** What the caller may see of a record: everything, or the default view. */
export const audienceOf = (request: FastifyRequest) => ({
  fullDetails: request.identity?.roles.includes(FULL_DETAILS_ROLE) ?? false,
});

/**
 * Runs a call to the store, answering its failure as the store unavailable (503): the service cannot
 * answer now, and the caller may retry.
 */
export const storeUnavailable = unavailableUnless('The record store is unavailable; try again shortly');
