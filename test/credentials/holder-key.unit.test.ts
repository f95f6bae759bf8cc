/**
 * The holder keys a credential may bind (parseHolderKey): a real P-256 or Ed25519 public key. An
 * Ed25519 key that Node takes (any 32 bytes) but that is a point of small order, or has a
 * small-order part, or is off the curve, is refused, as a P-256 point off the curve is.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519.js';
import { parseHolderKey } from '../../src/credentials/holder-key.ts';

const param = (jwk: unknown) => Buffer.from(JSON.stringify(jwk)).toString('base64url');
const okp = (bytes: Uint8Array) => param({ kty: 'OKP', crv: 'Ed25519', x: Buffer.from(bytes).toString('base64url') });
const problemOf = (text: string) => {
  const parsed = parseHolderKey(text);
  return 'problem' in parsed ? parsed.problem : undefined;
};

test('real P-256 and Ed25519 public keys are taken', () => {
  for (const type of ['ed25519', 'ec'] as const) {
    const { publicKey } =
      type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
    assert.equal(problemOf(param(publicKey.export({ format: 'jwk' }))), undefined, type);
  }
});

test('an Ed25519 point of small order, with a small-order part, or off the curve is refused', () => {
  const real = Buffer.from(String(generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }).x), 'base64url');
  const zero = new Uint8Array(32);
  const identity = new Uint8Array(32);
  identity[0] = 1;
  // A real key plus a point of order 4 (the one 32 zero bytes encode): on the curve, not in the prime-order group.
  const mixed = ed25519.Point.fromBytes(real).add(ed25519.Point.fromBytes(zero)).toBytes();
  for (const [name, bytes] of [
    ['32 zero bytes', zero],
    ['the identity', identity],
    ['a mixed-order point', mixed],
  ] as const) {
    assert.match(problemOf(okp(bytes)) ?? 'taken', /small order/, name);
  }
  assert.match(problemOf(okp(new Uint8Array(32).fill(0xff))) ?? 'taken', /not a point of the curve Ed25519/);
  // A P-256 point off the curve, as before.
  const { x } = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  assert.match(problemOf(param({ kty: 'EC', crv: 'P-256', x, y: x })) ?? 'taken', /not a valid P-256 public key/);
});
