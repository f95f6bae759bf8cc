/**
 * Signatures as the Standard Webhooks specification says
 * (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
 * the signed content is `<webhook-id>.<webhook-timestamp>.<body>`; `v1,` is its HMAC-SHA256 with
 * the subscription's `whsec_` secret (made by the specification's own library, so receivers using
 * it verify what it signed), `v1a,` its Ed25519 signature where the subscription has a key pair
 * (the library has no `v1a`; node:crypto signs, the public key is published as `whpk_`). During a
 * rotation's grace both secrets sign, space-separated, as the specification allows.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookKeys } from '../model/webhooks.ts';

const SECRET_PREFIX = 'whsec_';
const PUBLIC_KEY_PREFIX = 'whpk_';

/** A new HMAC secret: 32 random bytes, as the specification's `whsec_` + base64. */
export const newSecret = () => SECRET_PREFIX + randomBytes(32).toString('base64');

/** A new Ed25519 private key, PKCS#8 DER in base64, as the store keeps it. */
export function newSigningKey(): string {
  const { privateKey } = generateKeyPairSync('ed25519');
  return privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
}

/** The published form of a signing key's public half: `whpk_` + base64 of its 32 raw bytes. */
export function publicKeyOf(signingKey: string): string {
  const publicKey = createPublicKey(
    createPrivateKey({ key: Buffer.from(signingKey, 'base64'), format: 'der', type: 'pkcs8' }),
  );
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return PUBLIC_KEY_PREFIX + der.subarray(der.length - 32).toString('base64');
}

/** The message id of a feed event: the same for every attempt at it, so receivers can drop duplicates. */
export const webhookId = (position: number) => `msg_lev_${position}`;

interface SignedHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** The three headers for `body`, signed with every key that signs at `at`. */
export function signedHeaders(keys: WebhookKeys, id: string, at: Date, body: string): SignedHeaders {
  const signatures = [new Webhook(keys.secret).sign(id, at, body)];
  if (keys.previousSecret && keys.previousUntil && Date.parse(keys.previousUntil) > at.getTime()) {
    signatures.push(new Webhook(keys.previousSecret).sign(id, at, body));
  }
  const timestamp = String(Math.floor(at.getTime() / 1000));
  if (keys.signingKey) {
    const key = createPrivateKey({ key: Buffer.from(keys.signingKey, 'base64'), format: 'der', type: 'pkcs8' });
    signatures.push(`v1a,${sign(null, Buffer.from(`${id}.${timestamp}.${body}`), key).toString('base64')}`);
  }
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures.join(' ') };
}
