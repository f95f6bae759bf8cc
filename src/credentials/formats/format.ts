/**
 * A credential format a wallet picks up over OpenID4VCI (1.0, appendix A): its identifier, what the
 * issuer metadata says of it for a record type, and how one credential of a record is made, bound
 * to the key the wallet proved it holds. Every format is derived from the record description and
 * the same claims (claims.ts), and points into the same status list, so a change to the register
 * revokes every format alike.
 */
import type { JWK } from 'jose';
import type { RecordDescription } from '../../records/define.ts';
import type { StatusEntry } from '../../model/credentials.ts';
import type { Claims } from '../claims.ts';

/** OpenID4VCI's format identifiers of the formats this service issues. */
export type FormatId = 'dc+sd-jwt' | 'mso_mdoc' | 'jwt_vc_json';

export interface FormatIssueInput {
  /** The issuer URL. */
  readonly issuer: string;
  readonly description: RecordDescription;
  /** The record's claims as compileClaims gives them (what the caller may see, links left out). */
  readonly claims: Claims;
  /** The credential's entry in the status list. */
  readonly status: StatusEntry;
  /** The public key the wallet proved possession of: the credential is bound to it. */
  readonly holderKey: JWK;
}

export interface CredentialFormat {
  readonly format: FormatId;
  /** How a credential of it is bound to its holder (the metadata's `cryptographic_binding_methods_supported`). */
  readonly bindingMethods: readonly string[];
  /** The credential configuration's identifier in the issuer metadata: one per record type and format. */
  configurationId(type: string): string;
  /**
   * The format's own members of a credential configuration (OpenID4VCI 1.0 appendix A: `vct`,
   * `doctype`, `credential_definition`), with `credential_metadata` (display, claims) derived
   * from the description; the members every format shares (format, scope, binding and proof
   * types) are added by the caller.
   */
  configuration(description: RecordDescription, issuer: string): Record<string, unknown>;
  /** One credential, as the credential response's `credential` member carries it. */
  issue(input: FormatIssueInput): Promise<string>;
}
