import type { IncomingHttpHeaders } from 'node:http';

/** Who is calling, however they were identified (mock headers, a token, a trusted proxy). */
export interface Identity {
  readonly username: string;
  readonly client: string;
  readonly roles: readonly string[];
  readonly groups: readonly string[];
}

/** The parts of a request that identify its caller (a FastifyRequest has them). */
export interface Caller {
  readonly headers: IncomingHttpHeaders;
  readonly socket: { readonly remoteAddress?: string };
  /**
   * The client certificate of the connection (mutual TLS), which a bound token must name: its
   * base64url SHA-256 thumbprint (auth/client-certificate.ts).
   */
  readonly clientCertificate?: { readonly thumbprint: string };
}

/**
 * How a caller is identified, by AUTH_MODE (auth/identify.ts): their Identity, or the ApiError to answer
 * with (thrown, or the promise's rejection). At once where nothing needs waiting for (headers), a promise
 * where something does (a token issuer's keys).
 */
export type Identifier = (caller: Caller) => Identity | Promise<Identity>;

/** The role that sees every field of a record, not only what the default view shows. */
export const FULL_DETAILS_ROLE = 'full-details';
/** The role that allows asking for close matches (GET /v1/suggestions), as well as the dataset's own role. */
export const SUGGEST_ROLE = 'suggest';
/** The role that reads the audit trail (its report and pages). */
export const AUDIT_ROLE = 'audit';
/** The role that is issued digital certificates (GET /v1/credentials), as well as the dataset's own role. */
export const CREDENTIALS_ROLE = 'credentials';
