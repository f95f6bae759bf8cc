/**
 * The JWTs of the pick-up: the pre-authorised code a department's offer carries (in the shape
 * GOV.UK Wallet documents: `iss` this issuer, `aud` the authorization server, `clientId`, one
 * credential identifier, `iat` and `exp`), and the access token the service's own authorization
 * server gives for it (RFC 9068 `at+jwt`, bound to the offer, carrying a `c_nonce`). Both are signed
 * with the issuer's current key, published at /.well-known/jwks.json; each is told from the other
 * and from a credential by its `typ`. An external authorization server's access tokens are
 * verified against its own key set.
 */
import { randomUUID } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { type IssuerKeys, signWith } from '../keys.ts';

const CODE_TYP = 'JWT';
const ACCESS_TOKEN_TYP = 'at+jwt';
/** Seconds an access token of the service's own authorization server is valid. */
export const ACCESS_TOKEN_TTL_S = 300;

const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

function signJwt(keys: IssuerKeys, typ: string, payload: Record<string, unknown>): string {
  const { current } = keys;
  const input = `${base64url({ kid: current.kid, typ, alg: current.alg })}.${base64url(payload)}`;
  return `${input}.${signWith(current)(input)}`;
}

export interface CodeClaims {
  readonly issuer: string;
  readonly audience: string;
  readonly clientId: string;
  readonly offerId: string;
  readonly iat: number;
  readonly exp: number;
}

export const preAuthorizedCode = (keys: IssuerKeys, claims: CodeClaims) =>
  signJwt(keys, CODE_TYP, {
    aud: claims.audience,
    clientId: claims.clientId,
    iss: claims.issuer,
    credential_identifiers: [claims.offerId],
    exp: claims.exp,
    iat: claims.iat,
  });

export interface AccessTokenClaims {
  readonly issuer: string;
  readonly offerId: string;
  readonly subject: string;
  readonly clientId: string;
  readonly cNonce: string;
  readonly now: number;
}

export const accessToken = (keys: IssuerKeys, claims: AccessTokenClaims) => {
  const iat = Math.floor(claims.now / 1000);
  return signJwt(keys, ACCESS_TOKEN_TYP, {
    iss: claims.issuer,
    aud: claims.issuer,
    sub: claims.subject,
    client_id: claims.clientId,
    credential_identifiers: [claims.offerId],
    c_nonce: claims.cNonce,
    iat,
    exp: iat + ACCESS_TOKEN_TTL_S,
    jti: randomUUID(),
  });
};

/** The service's own keys as jose reads a key set. */
export const ownKeySet = (keys: IssuerKeys): JWTVerifyGetKey =>
  createLocalJWKSet({ keys: keys.all.map((key) => key.publicJwk) });

/** An external authorization server's key set, fetched (and cached) from <url>/.well-known/jwks.json. */
export const remoteKeySet = (server: string): JWTVerifyGetKey =>
  createRemoteJWKSet(new URL(`${server}/.well-known/jwks.json`), { timeoutDuration: 5000 });

/** The offer a verified JWT names: its one credential identifier. */
const offerIdOf = (payload: JWTPayload): string | undefined => {
  const ids = payload.credential_identifiers;
  return Array.isArray(ids) && ids.length === 1 && typeof ids[0] === 'string' ? ids[0] : undefined;
};

/** The offer a pre-authorised code of this service names, or undefined when it is not one (bad, expired, another's). */
export async function verifyCode(
  code: string,
  keys: JWTVerifyGetKey,
  issuer: string,
  audience: string,
): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(code, keys, {
      issuer,
      audience,
      typ: CODE_TYP,
      algorithms: ['ES256', 'EdDSA'],
      requiredClaims: ['exp', 'iat'],
    });
    return offerIdOf(payload);
  } catch {
    return undefined;
  }
}

export interface VerifiedAccessToken {
  readonly offerId: string;
  readonly subject: string | undefined;
  readonly cNonce: string | undefined;
}

export interface AccessTokenCheck {
  readonly keys: JWTVerifyGetKey;
  /** Who signs them: this issuer, or the external authorization server. */
  readonly tokenIssuer: string;
  /** This credential issuer, their audience. */
  readonly audience: string;
  /** `at+jwt`, for the service's own; an external server's are taken whatever their typ. */
  readonly typ?: string;
}

export const OWN_ACCESS_TOKEN_TYP = ACCESS_TOKEN_TYP;

/** The offer and subject an access token names, or a reason it is refused. */
export async function verifyAccessToken(
  token: string,
  check: AccessTokenCheck,
): Promise<VerifiedAccessToken | { problem: string }> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, check.keys, {
      issuer: check.tokenIssuer,
      audience: check.audience,
      algorithms: ['ES256', 'EdDSA'],
      requiredClaims: ['exp'],
      ...(check.typ ? { typ: check.typ } : {}),
    }));
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { problem: code === 'ERR_JWT_EXPIRED' ? 'The access token has expired' : 'The access token is not valid' };
  }
  const offerId = offerIdOf(payload);
  if (!offerId) return { problem: 'The access token names no credential' };
  return { offerId, subject: payload.sub, cNonce: typeof payload.c_nonce === 'string' ? payload.c_nonce : undefined };
}
