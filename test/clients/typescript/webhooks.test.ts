/**
 * The typed client's verifyWebhook on a real receiver of real deliveries: the whsec_ secret
 * (through standardwebhooks) and the published whpk_ key both accept what the service sent, and
 * refuse a changed body, another key, or a stale timestamp.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WebhookVerificationError, verifyWebhook } from '@lev-api/client';
import { type Source, loadSources } from '../../../src/load/loader.ts';
import { newSecret, newSigningKey, publicKeyOf } from '../../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../../src/webhooks/start.ts';
import { emptyStore, onEnd } from '../../helper.ts';
import { SETTINGS, startReceiver, until } from '../../webhooks/receiver.ts';
import { builtInType } from '../../record-types.ts';

test(
  'verifyWebhook accepts what the service signed, ' + 'with the secret or the public key, and nothing else',
  async (t) => {
    const store = await emptyStore(t, 'memory');
    const receiver = await startReceiver(t);
    const secret = newSecret();
    const signingKey = newSigningKey();
    await store.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
    await store.webhooks.setEndpoint('dwp', { url: receiver.url }, { secret, signingKey });
    const delivery = startConfiguredDelivery(SETTINGS, store, store.descriptions, { info() {}, warn() {} }, undefined, {
      pollMs: 50,
    });
    onEnd(t, () => delivery.stop());
    const source: Source = {
      name: 'one',
      size: undefined,
      open: () => [
        JSON.stringify({
          id: 41,
          deceased: { forenames: 'A', surname: 'B', dateOfDeath: '2024-03-01', dateOfBirth: '1940-01-01' },
          status: { blocked: false },
        }),
      ],
    };
    await loadSources(store.writer, builtInType('death'), [source]);
    await until(() => receiver.received.length === 1, 'the delivery');
    const { headers, body } = receiver.received[0];

    const event = verifyWebhook(headers, body, secret);
    assert.equal(event.type, 'death.registered');
    assert.equal(event.subject, '41');
    assert.deepEqual(verifyWebhook(new Headers(headers), Buffer.from(body), publicKeyOf(signingKey)), event);

    assert.throws(() => verifyWebhook(headers, body.replace('41', '42'), secret), WebhookVerificationError);
    assert.throws(
      () => verifyWebhook(headers, body.replace('41', '42'), publicKeyOf(signingKey)),
      WebhookVerificationError,
    );
    assert.throws(() => verifyWebhook(headers, body, newSecret()), WebhookVerificationError);
    assert.throws(() => verifyWebhook(headers, body, publicKeyOf(newSigningKey())), /No matching signature/);
    const stale = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 3600) };
    assert.throws(() => verifyWebhook(stale, body, secret), WebhookVerificationError);
    assert.throws(() => verifyWebhook(stale, body, publicKeyOf(signingKey)), /too old/);
    assert.throws(() => verifyWebhook({}, body, secret), /Missing required header webhook-id/);
    assert.throws(() => verifyWebhook(headers, body, 'hunter2'), TypeError);
  },
);
