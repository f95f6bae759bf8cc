/**
 * AUTH_MODE=oidc: `Authorization: Bearer <JWT>`, verified in the process.
 *
 * The issuer's discovery document (`/.well-known/openid-configuration`) is
 * fetched on the first token that needs a key, never at import, and again on
 * the next token if it failed. Its `jwks_uri` feeds jose's remote key set,
 * which caches the keys (refetched after 10 minutes) and refetches at once
 * when a token names an unknown `kid`, but at most once per cooldown
 * (OIDC_JWKS_COOLDOWN_S, 30 s by default), so a flood of tokens with made-up
 * key ids costs the issuer one request per cooldown at most.
 *
 * Checks: the algorithm is one of ALGORITHMS (asymmetric only: never `none`,
 * never HMAC, so a public key cannot be used as a shared secret); the
 * signature is by a key the issuer publishes; `iss` is OIDC_ISSUER; `aud`
 * contains OIDC_AUDIENCE; `exp` and `iat` are present; `exp`, `nbf` and `iat`
 * are within OIDC_CLOCK_TOLERANCE_S of now; `exp` is at most
 * OIDC_MAX_TOKEN_LIFETIME_S after `iat` (a token meant to live for ever is a
 * stolen token that never dies); a `typ` header, when the issuer sets one,
 * names an access token (ACCESS_TOKEN_TYPES); a token with a `cnf` claim is
 * bound to a client certificate (RFC 8705): its `x5t#S256` must be the
 * thumbprint of the certificate this connection presented, and with
 * REQUIRE_BOUND_TOKENS a token without `cnf` is refused. Any failure is a 401 with
 * `error="invalid_token"` and the same message, whichever check failed. When
 * the issuer cannot be reached for its keys, the answer is 503.
 */
import { type JWTHeaderParameters, type JWTPayload, type JWTVerifyGetKey, createRemoteJWKSet, jwtVerify } from 'jose';
import type { ClaimPath } from '../config/claims.ts';
import type { OidcConfig } from '../config/auth.ts';
import { unauthorized, serviceUnavailable } from '../errors.ts';
import type { Caller, Identifier, Identity } from '../model/identity.ts';
import { bearerChallenge } from './challenge.ts';

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * The header `typ` values of an access token, compared case-insensitively (media types): RFC 9068's
 * `at+jwt` (which oidc-provider sets), and the plain `JWT` that Keycloak sets on every token it
 * issues. An ID token, logout token or DPoP proof names another type and is refused; a token
 * without `typ` is accepted, as most issuers set none.
 */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt', 'jwt']);

/** How long a fetch of the discovery document or of the keys may take. */
const FETCH_TIMEOUT_MS = 5_000;

/** jose's codes for a token that fails a check; any other failure is the issuer's (503). */
const TOKEN_REJECTED = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

/** The issuer could not be asked, or answered wrongly; `code` says which, for the log. */
class IssuerError extends Error {
  override name = 'IssuerError';
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A token that is well formed and signed but lacks the claims an identity needs. */
class MissingClaim extends Error {
  override name = 'MissingClaim';
  readonly code = 'MISSING_IDENTITY_CLAIM';
  constructor(readonly claim: string) {
    super(`no ${claim} claim`);
  }
}

const discoveryUrl = (issuer: string) => `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;

/** Fetches the discovery document and returns its `jwks_uri`, checked. */
async function discoverJwksUri(issuer: string): Promise<URL> {
  let document: unknown;
  try {
    const response = await fetch(discoveryUrl(issuer), {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (!response.ok) throw new IssuerError('OIDC_DISCOVERY_STATUS', `discovery answered ${response.status}`);
    document = await response.json();
  } catch (error) {
    if (error instanceof IssuerError) throw error;
    throw new IssuerError('OIDC_DISCOVERY_FAILED', 'discovery document could not be fetched', { cause: error });
  }
  const { issuer: stated, jwks_uri: jwksUri } = (document ?? {}) as { issuer?: unknown; jwks_uri?: unknown };
  // OpenID Connect Discovery 1.0, section 4.3: the document must name the issuer it was fetched for.
  if (stated !== issuer)
    throw new IssuerError('OIDC_DISCOVERY_ISSUER_MISMATCH', 'discovery document names another issuer');
  let url: URL;
  try {
    url = new URL(String(jwksUri));
  } catch {
    throw new IssuerError('OIDC_DISCOVERY_NO_JWKS_URI', 'discovery document has no usable jwks_uri');
  }
  const httpsRequired = new URL(issuer).protocol === 'https:';
  if (url.protocol !== 'https:' && (httpsRequired || url.protocol !== 'http:')) {
    throw new IssuerError('OIDC_DISCOVERY_NO_JWKS_URI', 'discovery document has no usable jwks_uri');
  }
  return url;
}

/** The claim at a path: the name itself when a top-level claim has it (`https://x/roles`), else the dotted path. */
function claimAt(claims: JWTPayload, path: ClaimPath): unknown {
  if (Object.hasOwn(claims, path.name)) return claims[path.name];
  let value: unknown = claims;
  for (const segment of path.segments) {
    if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

const firstText = (claims: JWTPayload, paths: readonly ClaimPath[]): string | undefined => {
  for (const path of paths) {
    const value = claimAt(claims, path);
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return undefined;
};

const allTexts = (claims: JWTPayload, paths: readonly ClaimPath[]): string[] => {
  const found = new Set<string>();
  for (const path of paths) {
    const value = claimAt(claims, path);
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string' && item) found.add(item);
  }
  return [...found];
};

/** The identity the verified claims give (Keycloak's claims by default; see OIDC_*_CLAIM). */
export function identityFromClaims(claims: JWTPayload, mapping: OidcConfig['claims']): Identity {
  const username = firstText(claims, mapping.username);
  if (!username) throw new MissingClaim('username');
  const client = firstText(claims, mapping.client);
  if (!client) throw new MissingClaim('client');
  return { username, client, roles: allTexts(claims, mapping.roles), groups: allTexts(claims, mapping.groups) };
}

/** RFC 6750 b64token after the case-insensitive scheme. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** Why a token's certificate binding fails (RFC 8705 section 3), for the log; undefined when it holds. */
function bindingProblem(
  claims: JWTPayload,
  certificate: Caller['clientCertificate'],
  required: boolean,
): string | undefined {
  const { cnf } = claims;
  if (cnf === undefined) return required ? 'CNF_REQUIRED' : undefined;
  if (!cnf || typeof cnf !== 'object' || Array.isArray(cnf)) return 'CNF_MALFORMED';
  const expected = (cnf as Record<string, unknown>)['x5t#S256'];
  // Another confirmation method (a DPoP key's jkt, say) is a binding this service cannot check: never ignored.
  if (expected === undefined) return 'CNF_UNSUPPORTED_METHOD';
  if (typeof expected !== 'string') return 'CNF_MALFORMED';
  if (!certificate) return 'CNF_NO_CLIENT_CERTIFICATE';
  return expected === certificate.thumbprint ? undefined : 'CNF_CERTIFICATE_MISMATCH';
}

const invalidToken = (cause: unknown) =>
  Object.assign(unauthorized('The access token is invalid or has expired', bearerChallenge('invalid_token')), {
    cause,
  });

export function oidcIdentifier(config: OidcConfig): Identifier {
  let keySet: Promise<JWTVerifyGetKey> | undefined;
  // Concurrent first requests share one discovery; a failed one is forgotten, so the next token retries.
  const keys = () =>
    (keySet ??= discoverJwksUri(config.issuer)
      .then((uri) =>
        createRemoteJWKSet(uri, {
          cooldownDuration: config.jwksCooldownS * 1000,
          timeoutDuration: FETCH_TIMEOUT_MS,
          cacheMaxAge: 10 * 60 * 1000,
        }),
      )
      .catch((error) => {
        keySet = undefined;
        throw error;
      }));
  // Called by jose only once the token parses and its algorithm is allowed: garbage never reaches the issuer.
  const getKey: JWTVerifyGetKey = async (header, token) => (await keys())(header, token);

  return async ({ headers, clientCertificate }) => {
    const authorization = headers.authorization;
    if (!authorization || !/^Bearer(\s|$)/i.test(authorization)) {
      throw unauthorized('An access token is required: send Authorization: Bearer <token>', bearerChallenge());
    }
    const token = BEARER.exec(authorization)?.[1];
    if (!token)
      throw unauthorized("The Authorization header must be 'Bearer <token>'", bearerChallenge('invalid_request'));

    let claims: JWTPayload;
    let header: JWTHeaderParameters;
    try {
      ({ payload: claims, protectedHeader: header } = await jwtVerify(token, getKey, {
        algorithms: ALGORITHMS,
        issuer: config.issuer,
        audience: config.audience,
        clockTolerance: config.clockToleranceS,
        requiredClaims: ['exp', 'iat'],
      }));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code && TOKEN_REJECTED.has(code)) throw invalidToken(error);
      throw Object.assign(
        serviceUnavailable('The token issuer cannot be reached to check the access token; try again shortly'),
        {
          cause: error,
        },
      );
    }
    // jose checks iat only against a maximum age; a token issued in the future is refused here.
    if ((claims.iat as number) > Date.now() / 1000 + config.clockToleranceS) {
      throw invalidToken(
        Object.assign(new Error('iat in the future'), {
          name: 'JWTClaimValidationFailed',
          code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
          claim: 'iat',
        }),
      );
    }
    const lifetimeS = (claims.exp as number) - (claims.iat as number);
    if (lifetimeS > config.maxTokenLifetimeS) {
      throw invalidToken(
        Object.assign(new Error('lifetime too long'), {
          name: 'JWTClaimValidationFailed',
          code: 'TOKEN_LIFETIME_TOO_LONG',
          claim: 'exp',
        }),
      );
    }
    if (
      header.typ !== undefined &&
      !(typeof header.typ === 'string' && ACCESS_TOKEN_TYPES.has(header.typ.toLowerCase()))
    ) {
      throw invalidToken(
        Object.assign(new Error('not an access token'), {
          name: 'JWTClaimValidationFailed',
          code: 'TOKEN_TYPE_NOT_ACCESS',
          claim: 'typ',
        }),
      );
    }
    const binding = bindingProblem(claims, clientCertificate, config.requireBoundTokens);
    if (binding) {
      throw invalidToken(
        Object.assign(new Error('certificate binding'), {
          name: 'CertificateBindingFailed',
          code: binding,
          claim: 'cnf',
        }),
      );
    }
    try {
      return identityFromClaims(claims, config.claims);
    } catch (error) {
      throw invalidToken(error);
    }
  };
}
