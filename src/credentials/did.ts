/**
 * The decentralised identifiers a JWT VC names (W3C DID 1.0): the issuer's `did:web`, whose document
 * at /.well-known/did.json lists the issuer's public keys (the same keys as /.well-known/jwt-vc-issuer,
 * keys.ts) as JsonWebKey2020 verification methods, as GOV.UK Wallet's issuer interface asks; and the
 * holder's `did:key`, the key the wallet proved it holds, as the credential's subject.
 */
import type { JWK } from 'jose';
import type { IssuerKeys } from './keys.ts';

/** Where did:web resolves a DID of a bare domain. */
export const DID_DOCUMENT_PATH = '/.well-known/did.json';

/**
 * The did:web of the issuer URL: its host (a port's colon percent-encoded) and, for an issuer under a
 * path, the path's segments, each after a colon, as the did:web method specification has it.
 */
export function didWeb(issuer: string): string {
  const url = new URL(issuer);
  const segments = url.pathname.split('/').filter(Boolean).map(encodeURIComponent);
  return ['did:web', encodeURIComponent(url.host), ...segments].join(':');
}

/** The verification method id of an issuer key: its DID, then the key's kid (its JWK thumbprint). */
export const verificationMethodId = (issuer: string, kid: string) => `${didWeb(issuer)}#${kid}`;

/** The issuer's DID document: every published key, each a JsonWebKey2020 method usable for assertions (issuing). */
export function didDocument(issuer: string, keys: IssuerKeys) {
  const id = didWeb(issuer);
  const methods = keys.all.map(({ kid, publicJwk }) => {
    const { kty, crv, x, y } = publicJwk;
    return {
      id: `${id}#${kid}`,
      type: 'JsonWebKey2020',
      controller: id,
      publicKeyJwk: { kty, crv, x, ...(y ? { y } : {}), kid, alg: publicJwk.alg },
    };
  });
  return {
    '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/suites/jws-2020/v1'],
    id,
    verificationMethod: methods,
    assertionMethod: methods.map((method) => method.id),
  };
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58btc(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/**
 * The did:key of a public key (W3C did:key): the multicodec of its type (p256-pub 0x1200,
 * ed25519-pub 0xed, as varints) and the key (a P-256 point compressed), base58btc with its `z`.
 */
export function didKey(jwk: JWK): string {
  const x = Buffer.from(jwk.x as string, 'base64url');
  let bytes: Buffer;
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') {
    const y = Buffer.from(jwk.y as string, 'base64url');
    bytes = Buffer.concat([Buffer.from([0x80, 0x24, 0x02 | (y[y.length - 1] & 1)]), x]);
  } else if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') {
    bytes = Buffer.concat([Buffer.from([0xed, 0x01]), x]);
  } else {
    throw new Error(`no did:key for a key of kty ${jwk.kty} and crv ${jwk.crv}`);
  }
  return `did:key:z${base58btc(bytes)}`;
}
