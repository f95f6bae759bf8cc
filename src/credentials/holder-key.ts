/**
 * The holder's key a caller may give (`holderKey`: a public JWK, JSON in base64url), which becomes
 * the credential's `cnf`: only the holder of the private key can then present it (key binding).
 * Only the curves the issuer's own algorithms use are taken, and never a private key.
 */
import { createPublicKey } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import type { JWK } from 'jose';

/**
 * Why an Ed25519 public key (its 32 bytes) is weak, or undefined when it is sound. Node takes any 32
 * bytes as one; noble's decoding refuses a point off the curve or not canonically written, and a
 * point of small order (32 zero bytes is one), or with a small-order part, is one whose signatures
 * prove nothing of a private key.
 */
function ed25519Problem(x: string): string | undefined {
  let point;
  try {
    point = ed25519.Point.fromBytes(Buffer.from(x, 'base64url'));
  } catch {
    return 'it is not a point of the curve Ed25519';
  }
  if (point.isSmallOrder() || !point.isTorsionFree())
    return 'it is a point of small order, which binds to no private key: give a real Ed25519 public key';
  return undefined;
}

/** The public JWK the parameter holds, or a problem naming what is wrong with it. */
export function parseHolderKey(text: string): { jwk: JWK } | { problem: string } {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > 2000)
    return { problem: 'it must be a JWK, as JSON encoded in base64url (at most 2000 characters)' };
  let jwk: JWK;
  try {
    jwk = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as JWK;
  } catch {
    return { problem: 'it is not JSON encoded in base64url' };
  }
  if (jwk === null || typeof jwk !== 'object' || Array.isArray(jwk))
    return { problem: 'it is not a JWK (a JSON object)' };
  if ('d' in jwk) return { problem: 'it holds a private key ("d"): give the public key only' };
  const curve = `${jwk.kty}/${jwk.crv}`;
  if (curve !== 'EC/P-256' && curve !== 'OKP/Ed25519') {
    return {
      problem:
        `a key of kty ${JSON.stringify(jwk.kty)} and crv ${JSON.stringify(jwk.crv)}: only EC P-256 and OKP ` +
        'Ed25519 public keys are taken',
    };
  }
  try {
    createPublicKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  } catch {
    return { problem: `it is not a valid ${jwk.crv} public key` };
  }
  // P-256's point is checked on the curve above (OpenSSL); an Ed25519 key's, and its order, here.
  const weak = jwk.kty === 'OKP' ? ed25519Problem(String(jwk.x)) : undefined;
  if (weak) return { problem: weak };
  // Only the members that make the key: nothing else the caller sent is signed into the credential.
  return {
    jwk: jwk.kty === 'EC' ? { kty: 'EC', crv: jwk.crv, x: jwk.x, y: jwk.y } : { kty: 'OKP', crv: jwk.crv, x: jwk.x },
  };
}
