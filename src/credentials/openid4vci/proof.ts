/**
 * The wallet's proof of possession (OpenID4VCI 1.0, appendix F.1): a JWT of `typ`
 * `openid4vci-proof+jwt`, signed ES256 by the key the credential is to be bound to, given in the
 * header as a `jwk` or a `did:key` `kid`, its `aud` this issuer, its `iat` recent and its `nonce`
 * one the issuer handed out. What it proves is the public key, and only that is returned: nothing
 * else of the header is signed into the credential.
 */
import { ECDH } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';
import { invalidProof } from './errors.ts';

export const PROOF_TYP = 'openid4vci-proof+jwt';
/** How old a proof's iat may be, and how far ahead of this clock, in seconds. */
export const PROOF_MAX_AGE_S = 300;
const PROOF_MAX_SKEW_S = 60;

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58(text: string): Buffer | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = BASE58.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const hex = value.toString(16);
  const bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
  const zeros = text.length - text.replace(/^1+/, '').length;
  return Buffer.concat([Buffer.alloc(zeros), value === 0n ? Buffer.alloc(0) : bytes]);
}

/** The P-256 public key a `did:key` names (multicodec p256-pub, 0x1200, a compressed point), or undefined. */
export function didKeyJwk(did: string): JWK | undefined {
  const match = /^did:key:z([1-9A-HJ-NP-Za-km-z]+)(?:#z[1-9A-HJ-NP-Za-km-z]+)?$/.exec(did);
  const bytes = match && base58(match[1]);
  if (bytes?.length !== 35 || bytes[0] !== 0x80 || bytes[1] !== 0x24) return undefined;
  try {
    const point = ECDH.convertKey(bytes.subarray(2), 'prime256v1', undefined, undefined, 'uncompressed') as Buffer;
    return {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    };
  } catch {
    return undefined;
  }
}

export interface CheckedProof {
  /** The public key proved, as the credential names it. */
  readonly key: JWK;
  /** The nonce it carries. */
  readonly nonce: string | undefined;
}

/** Checks a proof's form, key, signature, audience and age; the nonce is the caller's to check. */
export async function checkProof(jwt: unknown, issuer: string, now = Date.now()): Promise<CheckedProof> {
  if (typeof jwt !== 'string' || jwt.length > 8192 || jwt.split('.').length !== 3)
    throw invalidProof('The proof is not a JWT');
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw invalidProof("The proof's header cannot be read");
  }
  if (header.typ !== PROOF_TYP) throw invalidProof(`The proof's typ must be ${PROOF_TYP}`);
  if (header.alg !== 'ES256') throw invalidProof("The proof's alg must be ES256");
  const given = [header.jwk, header.kid, header.x5c].filter((member) => member !== undefined).length;
  if (given !== 1 || header.x5c !== undefined)
    throw invalidProof("The proof's header must name its key one way: a jwk, or a did:key kid");
  let key: JWK | undefined;
  if (header.jwk !== undefined) {
    const jwk = header.jwk as JWK;
    if (typeof jwk !== 'object' || jwk === null || 'd' in jwk)
      throw invalidProof("The proof's jwk must be a public key: it holds a private one");
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string')
      throw invalidProof("The proof's jwk must be a P-256 public key");
    key = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  } else {
    key = typeof header.kid === 'string' ? didKeyJwk(header.kid) : undefined;
    if (!key) throw invalidProof("The proof's kid must be a did:key of a P-256 key");
  }
  let payload: Record<string, unknown>;
  try {
    const verified = await compactVerify(jwt, await importJWK(key, 'ES256'), { algorithms: ['ES256'] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>;
  } catch {
    throw invalidProof("The proof's signature does not verify with the key it names");
  }
  if (typeof payload !== 'object' || payload === null) throw invalidProof("The proof's payload is not a JSON object");
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(issuer)) throw invalidProof(`The proof's aud must be the credential issuer, ${issuer}`);
  const iat = payload.iat;
  const seconds = Math.floor(now / 1000);
  if (typeof iat !== 'number' || !Number.isFinite(iat)) throw invalidProof("The proof's iat is missing");
  if (iat < seconds - PROOF_MAX_AGE_S || iat > seconds + PROOF_MAX_SKEW_S)
    throw invalidProof(`The proof's iat must be within the last ${PROOF_MAX_AGE_S} seconds`);
  return { key, nonce: typeof payload.nonce === 'string' ? payload.nonce : undefined };
}
