/**
 * Checking a webhook from lev-api on the receiver's side, as the Standard Webhooks specification
 * says: with the subscription's `whsec_` secret through the specification's own library
 * (`standardwebhooks`: `v1,` signatures, the timestamp within five minutes), or with the
 * service's published `whpk_` Ed25519 key (`v1a,`, which that library does not check; done here
 * with node:crypto over the same `id.timestamp.body`, under the same five-minute rule).
 */
import { createPublicKey, verify } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './schema.ts';

export type WebhookEvent = components['schemas']['CloudEvent'];
export { WebhookVerificationError };

const TOLERANCE_S = 5 * 60;
// The DER prefix of an Ed25519 SubjectPublicKeyInfo, before the key's 32 bytes.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string {
  const value =
    typeof (headers as { get?: unknown }).get === 'function'
      ? (headers as { get(name: string): string | null }).get(name)
      : (headers as Record<string, string | string[] | undefined>)[name];
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) throw new WebhookVerificationError(`Missing required header ${name}`);
  return text;
}

/**
 * The event a webhook request carries, once its signature is checked: `key` is the `whsec_`
 * secret (any of them during a rotation) or the `whpk_` public key. Throws
 * WebhookVerificationError when the headers are missing, the timestamp is not recent, or no
 * signature matches. Pass the body exactly as received (a string or Buffer, not parsed JSON).
 */
export function verifyWebhook(headers: Headers, body: string | Buffer, key: string): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signature = header(headers, 'webhook-signature');
  if (key.startsWith('whsec_')) {
    return new Webhook(key).verify(body, {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': signature,
    }) as WebhookEvent;
  }
  if (!key.startsWith('whpk_')) throw new TypeError('the key is neither a whsec_ secret nor a whpk_ public key');
  const seconds = Number(timestamp);
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - seconds) > TOLERANCE_S)
    throw new WebhookVerificationError('Message timestamp too old or too new');
  const publicKey = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(key.slice(5), 'base64')]),
    format: 'der',
    type: 'spki',
  });
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), Buffer.from(body)]);
  const matches = signature
    .split(' ')
    .filter((one) => one.startsWith('v1a,'))
    .some((one) => verify(null, content, publicKey, Buffer.from(one.slice(4), 'base64')));
  if (!matches) throw new WebhookVerificationError('No matching signature found');
  return JSON.parse(Buffer.from(body).toString('utf8')) as WebhookEvent;
}
