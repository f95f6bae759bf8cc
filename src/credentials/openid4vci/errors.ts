/**
 * The errors OpenID4VCI and OAuth 2.0 name (OpenID4VCI 1.0 sections 8.3.1.2 and 11.3, RFC 6749
 * section 5.2, RFC 6750 section 3.1): the wallet reads `error`. Each is an ApiError too, so that
 * its body also carries the service's own `code` and `message` (the same words).
 */
import { ApiError } from '../../errors.ts';

export class OAuthError extends ApiError {
  constructor(
    status: number,
    readonly error: string,
    description: string,
    headers: Record<string, string> = {},
  ) {
    super(status, error, description, headers);
  }

  /** The answer's body: the protocol's members and the service's. */
  body() {
    return { error: this.error, error_description: this.message, code: this.error, message: this.message };
  }
}

/** A bad, expired, already-redeemed or another subject's access token (RFC 6750): 401 with WWW-Authenticate. */
export const invalidToken = (description: string) =>
  new OAuthError(401, 'invalid_token', description, {
    'www-authenticate': `Bearer error="invalid_token", error_description="${description.replaceAll('"', "'")}"`,
  });
export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description);
export const invalidProof = (description: string) => new OAuthError(400, 'invalid_proof', description);
export const invalidNonce = (description: string) => new OAuthError(400, 'invalid_nonce', description);
export const invalidCredentialRequest = (description: string) =>
  new OAuthError(400, 'invalid_credential_request', description);
export const unknownConfiguration = (description: string) =>
  new OAuthError(400, 'unknown_credential_configuration', description);
export const credentialRequestDenied = (description: string) =>
  new OAuthError(400, 'credential_request_denied', description);
export const invalidNotificationId = (description: string) =>
  new OAuthError(400, 'invalid_notification_id', description);
export const invalidNotificationRequest = (description: string) =>
  new OAuthError(400, 'invalid_notification_request', description);
