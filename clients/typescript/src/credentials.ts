/**
 * Verifying the service's digital certificates (SD-JWT VCs) offline, as a relying party outside
 * government does, with the OpenWallet Foundation's `@sd-jwt/*` packages: the issuer's signature
 * with the keys it publishes at /.well-known/jwt-vc-issuer, the expiry, every disclosure (one the
 * issuer signed no digest of is refused), the holder's key binding where the credential names a
 * holder key, and its status in the issuer's token status list, fetched and kept for the list's
 * `ttl`. Only issuers the caller trusts are believed, and only over HTTPS unless it allows plain
 * HTTP (the mock).
 */
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { digest } from '@sd-jwt/crypto-nodejs';
import { decodeSdJwt, unpack } from '@sd-jwt/decode';
import type { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';

// Imported by the first credential verified (it brings a schema library): a client that verifies none never loads it.
let sdJwtVc: Promise<typeof import('@sd-jwt/sd-jwt-vc')> | undefined;
const sdJwtVcLibrary = () => (sdJwtVc ??= import('@sd-jwt/sd-jwt-vc'));

export interface VerifyCredentialOptions {
  /** The issuer URLs believed (a credential's `iss` must be one of them), e.g. https://lev-api.example.gov.uk. */
  readonly trustedIssuers: readonly string[];
  /** Whether an http:// issuer may be believed: only for the mock. */
  readonly allowHttp?: boolean;
  /**
   * The nonce the relying party gave the holder, checked in the key binding; required to accept a
   * holder-bound presentation.
   */
  readonly nonce?: string;
  /** Whether a credential naming a holder key must be presented with key binding (default true). */
  readonly requireKeyBinding?: boolean;
  /** The time to verify at, in seconds since the epoch (default now). */
  readonly now?: number;
  readonly fetch?: typeof fetch;
}

export interface VerifiedCredential {
  /** The claims disclosed, with the registered ones (iss, iat, exp, vct, status, cnf). */
  readonly claims: Record<string, unknown>;
  readonly issuer: string;
  /** The credential type (its vct URL); the record type is its last segment. */
  readonly type: string;
  readonly recordType: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  /** Whether the registration still stands as the credential says: its status list entry is 0. */
  readonly stands: boolean;
  /** Whether the presentation proved possession of the holder key the credential names. */
  readonly holderBound: boolean;
}

/** A credential that is not genuine, or cannot be checked: the reason, for a person to read. */
export class CredentialVerificationError extends Error {
  override name = 'CredentialVerificationError';
}

/**
 * Input that is no credential at all (not an SD-JWT, or a JWT whose header or payload is no JSON object): a
 * form asks again.
 */
export class NotACredentialError extends CredentialVerificationError {
  override name = 'NotACredentialError';
}

const REGISTERED = new Set(['iss', 'iat', 'exp', 'nbf', 'vct', 'status', 'cnf', '_sd_alg']);

const fail = (message: string): never => {
  throw new CredentialVerificationError(message);
};

const verifyJws = (jwk: JsonWebKey & { alg?: string }, data: string, signature: string) =>
  verify(
    jwk.kty === 'OKP' ? null : 'sha256',
    Buffer.from(data),
    { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );

/**
 * A JWT's header (part 0) or payload (part 1) when it is a JSON object, otherwise undefined: any
 * other JSON (null, a number, a list) is what a forger or a fuzzer sends, never a JWT.
 */
function jwtPart(jwt: string, part: 0 | 1): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(jwt.split('.')[part] ?? '', 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

interface Cached<T> {
  readonly value: T;
  readonly until: number;
}
/** Issuers' keys and status lists, kept per process: keys five minutes, a status list for its ttl. */
const issuerKeysCache = new Map<string, Cached<JsonWebKey[]>>();
const statusListCache = new Map<string, Cached<string>>();
const KEYS_KEPT_MS = 300_000;

async function issuerKeys(issuer: string, fetchFn: typeof fetch): Promise<JsonWebKey[]> {
  const cached = issuerKeysCache.get(issuer);
  if (cached && cached.until > Date.now()) return cached.value;
  const url = new URL(issuer);
  const response = await fetchFn(`${url.origin}/.well-known/jwt-vc-issuer${url.pathname === '/' ? '' : url.pathname}`);
  if (!response.ok) fail(`the issuer's metadata could not be fetched (HTTP ${response.status})`);
  const metadata = (await response.json()) as { issuer?: unknown; jwks?: { keys?: unknown } };
  if (metadata.issuer !== issuer) fail(`the issuer's metadata names ${JSON.stringify(metadata.issuer)}, not ${issuer}`);
  const keys = Array.isArray(metadata.jwks?.keys)
    ? (metadata.jwks.keys as JsonWebKey[])
    : fail('the issuer publishes no keys');
  issuerKeysCache.set(issuer, { value: keys, until: Date.now() + KEYS_KEPT_MS });
  return keys;
}

/**
 * Verifies a credential or a presentation of one (an SD-JWT VC, `~`-separated); throws
 * CredentialVerificationError when it is not genuine.
 */
export async function verifyCredential(
  credential: string,
  options: VerifyCredentialOptions,
): Promise<VerifiedCredential> {
  const fetchFn = options.fetch ?? fetch;
  const text = credential.trim();
  const notACredential = (message: string): never => {
    throw new NotACredentialError(message);
  };
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+~/.test(text))
    notACredential('it is not an SD-JWT (an issuer-signed JWT followed by ~-separated disclosures)');
  const jwt = text.split('~')[0];
  const unverified = (jwtPart(jwt, 0) && jwtPart(jwt, 1)) ?? notACredential('its issuer-signed JWT cannot be read');
  const issuer = typeof unverified.iss === 'string' ? unverified.iss : fail('it names no issuer');
  if (!options.trustedIssuers.includes(issuer)) fail(`its issuer ${issuer} is not one trusted here`);
  if (!issuer.startsWith('https://') && !(options.allowHttp && issuer.startsWith('http://')))
    fail(`its issuer ${issuer} is not an HTTPS URL`);
  const keys = await issuerKeys(issuer, fetchFn);

  // The issuer's signature, on the credential and on the status list alike, by the key its header names.
  let unknownKey = false;
  const verifier = (data: string, signature: string) => {
    const kid = jwtPart(data, 0)?.kid;
    const jwk = keys.find((key) => (key as { kid?: string }).kid === kid);
    if (!jwk) {
      unknownKey = true;
      return false;
    }
    return verifyJws(jwk, data, signature);
  };
  let status: number | undefined;
  const sdJwt: SDJwtVcInstance = new (await sdJwtVcLibrary()).SDJwtVcInstance({
    hasher: digest,
    hashAlg: 'sha-256',
    verifier,
    kbVerifier: (data, signature, payload) => {
      const jwk = (payload as { cnf?: { jwk?: JsonWebKey } }).cnf?.jwk;
      return Boolean(jwk) && verifyJws(jwk as JsonWebKey, data, signature);
    },
    statusListFetcher: async (uri) => {
      if (!uri.startsWith(`${issuer}/`)) fail(`its status list ${uri} is not the issuer's`);
      const cached = statusListCache.get(uri);
      if (cached && cached.until > Date.now()) return cached.value;
      const response = await fetchFn(uri, { headers: { accept: 'application/statuslist+jwt' } });
      if (!response.ok) fail(`its status list could not be fetched (HTTP ${response.status})`);
      const token = await response.text();
      const ttl = Number(jwtPart(token, 1)?.ttl);
      if (Number.isFinite(ttl) && ttl > 0) statusListCache.set(uri, { value: token, until: Date.now() + ttl * 1000 });
      return token;
    },
    statusValidator: async (value) => {
      status = value;
    },
  });

  const holderBound = text.endsWith('~') === false;
  let result;
  try {
    result = await sdJwt.verify(text, {
      ...(options.now !== undefined ? { currentDate: options.now } : {}),
      ...(holderBound ? { keyBindingNonce: options.nonce ?? fail('a nonce is needed to check the key binding') } : {}),
    });
  } catch (error) {
    if (error instanceof CredentialVerificationError) throw error;
    if (unknownKey) fail('it is signed with a key the issuer does not publish');
    return fail(`it is not genuine: ${(error as Error).message}`);
  }
  const { payload } = result;
  if (payload.cnf && !holderBound && options.requireKeyBinding !== false)
    fail('it names a holder key but was presented without key binding');

  // Every disclosure must be one the issuer signed a digest of: an altered one would otherwise be
  // dropped silently. And each once: the library takes a repeated one as one, and no honest holder repeats one.
  const decoded = await decodeSdJwt(text, digest);
  const { disclosureKeymap } = await unpack(
    decoded.jwt.payload as Record<string, unknown>,
    decoded.disclosures,
    digest,
  );
  const referenced = new Set(Object.values(disclosureKeymap));
  const seen = new Set<string>();
  for (const disclosure of decoded.disclosures) {
    const digested = await disclosure.digest({ hasher: digest, alg: 'sha-256' });
    if (!referenced.has(digested)) fail('a disclosure was altered or added: the issuer signed no digest of it');
    if (seen.has(digested)) fail('a disclosure is given more than once');
    seen.add(digested);
  }
  if (status === undefined) fail('it carries no status the issuer can be asked');

  const claims = payload as Record<string, unknown>;
  const type = String(claims.vct);
  return {
    claims,
    issuer,
    type,
    recordType: type.slice(type.lastIndexOf('/') + 1),
    issuedAt: new Date(Number(claims.iat) * 1000),
    expiresAt: new Date(Number(claims.exp) * 1000),
    stands: status === 0,
    holderBound,
  };
}

/** The record's claims of a verified credential, without the registered ones. */
export const recordClaims = (verified: VerifiedCredential): Record<string, unknown> =>
  Object.fromEntries(Object.entries(verified.claims).filter(([key]) => !REGISTERED.has(key)));
