/**
 * The issuer's keys: the newest signs credentials and status lists, every one is published at
 * /.well-known/jwt-vc-issuer so that a credential signed before a rotation verifies until it
 * expires. Each key is named (`kid`) by its JWK thumbprint (RFC 7638), so the same key has the same
 * name in every process and a verifier can pick it from the set.
 */
import { type JsonWebKey, type KeyObject, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { issuerAlgorithm } from '../config/credentials.ts';

type IssuerAlgorithm = ReturnType<typeof issuerAlgorithm>;

export interface IssuerKey {
  readonly kid: string;
  readonly alg: IssuerAlgorithm;
  readonly privateKey: KeyObject;
  /** The public key as published: with its kid, alg and use. */
  readonly publicJwk: JWK;
}

export interface IssuerKeys {
  /** The key that signs. */
  readonly current: IssuerKey;
  /** Every key, the current one first, as the JWKS publishes them. */
  readonly all: readonly IssuerKey[];
  /** Whether the process made the key itself at start (no key was configured). */
  readonly madeAtStart: boolean;
}

/** A new private key for an issuer: P-256 for ES256 (the default), Ed25519 for EdDSA. */
export function newIssuerKey(alg: IssuerAlgorithm = 'ES256'): KeyObject {
  return alg === 'EdDSA'
    ? generateKeyPairSync('ed25519').privateKey
    : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}

export async function issuerKey(privateKey: KeyObject): Promise<IssuerKey> {
  const alg = issuerAlgorithm(privateKey);
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(jwk);
  return { kid, alg, privateKey, publicJwk: { ...jwk, kid, alg, use: 'sig' } };
}

/** The configured keys, or one made now when there are none. */
export async function issuerKeys(configured: readonly KeyObject[] | undefined): Promise<IssuerKeys> {
  const keys = configured?.length ? configured : [newIssuerKey()];
  const all = await Promise.all(keys.map(issuerKey));
  return { current: all[0], all, madeAtStart: !configured?.length };
}

/** Signs `data` (a JWS signing input) with the key: base64url, ES256 as the raw r||s JWS uses. */
export function signWith(key: IssuerKey): (data: string) => string {
  return key.alg === 'EdDSA'
    ? (data) => sign(null, Buffer.from(data), key.privateKey).toString('base64url')
    : (data) =>
        sign('sha256', Buffer.from(data), { key: key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
}

/** A private key as a key file holds it (`lev-api credentials rotate-key`). */
export const privateJwk = (key: KeyObject): JsonWebKey => key.export({ format: 'jwk' });
