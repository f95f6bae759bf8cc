/**
 * The `WWW-Authenticate` challenge of a 401 (RFC 6750 section 3). A request
 * with no credentials, or credentials of another scheme, gets the bare
 * challenge: the RFC says it SHOULD NOT carry an error code. A malformed
 * Authorization header is `invalid_request`; a token that fails any check is
 * `invalid_token`, with no word on which check.
 */
const REALM = 'lev-api';

type BearerError = 'invalid_request' | 'invalid_token';

export const bearerChallenge = (error?: BearerError): Record<string, string> => ({
  'www-authenticate': error ? `Bearer realm="${REALM}", error="${error}"` : `Bearer realm="${REALM}"`,
});
