/**
 * What the pick-up publishes: the credential issuer's metadata (OpenID4VCI 1.0 section 12.2), one
 * credential configuration a record type and format, each derived from the record description by
 * its format; and the service's own authorization server's metadata (RFC 8414), when it is the one.
 */
import type { FormatRegistry } from '../formats/index.ts';

export const WALLET_PATHS = {
  issuerMetadata: '/.well-known/openid-credential-issuer',
  authorizationServer: '/.well-known/oauth-authorization-server',
  jwks: '/.well-known/jwks.json',
  token: '/v1/wallet/token',
  nonce: '/v1/wallet/nonce',
  credential: '/v1/wallet/credential',
  notification: '/v1/wallet/notification',
  offer: '/v1/credentials/:type/:id/offer',
} as const;

export const PRE_AUTHORIZED_GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';
/** Proofs a request may carry, so credentials it may get. */
export const BATCH_SIZE = 10;

export interface IssuerMetadataOptions {
  readonly issuer: string;
  readonly authorizationServer: string;
  readonly registry: FormatRegistry;
  /** What a format adds at the top (the mdoc's `mdoc_iacas_uri`). */
  readonly extra?: Record<string, unknown>;
}

export function issuerMetadata({ issuer, authorizationServer, registry, extra = {} }: IssuerMetadataOptions) {
  const configurations = Object.fromEntries(
    registry.configurations.map(({ id, format, description }) => [
      id,
      {
        format: format.format,
        scope: id,
        cryptographic_binding_methods_supported: format.bindingMethods,
        proof_types_supported: { jwt: { proof_signing_alg_values_supported: ['ES256'] } },
        ...format.configuration(description, issuer),
      },
    ]),
  );
  return {
    credential_issuer: issuer,
    authorization_servers: [authorizationServer],
    credential_endpoint: `${issuer}${WALLET_PATHS.credential}`,
    nonce_endpoint: `${issuer}${WALLET_PATHS.nonce}`,
    notification_endpoint: `${issuer}${WALLET_PATHS.notification}`,
    batch_credential_issuance: { batch_size: BATCH_SIZE },
    display: [{ name: 'General Register Office: life events', locale: 'en-GB' }],
    ...extra,
    credential_configurations_supported: configurations,
  };
}

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    token_endpoint: `${issuer}${WALLET_PATHS.token}`,
    jwks_uri: `${issuer}${WALLET_PATHS.jwks}`,
    grant_types_supported: [PRE_AUTHORIZED_GRANT],
    response_types_supported: [],
    token_endpoint_auth_methods_supported: ['none'],
    'pre-authorized_grant_anonymous_access_supported': true,
  };
}
