/**
 * Delivery metrics per subscription, as /metrics would serve them: delivered, failed attempts,
 * retries scheduled, dead letters, retrying, the oldest undelivered event's age, and latency.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { loadSources } from '../../src/load/loader.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { deaths } from '../death-source.ts';
import { emptyStore, startApp, onEnd } from '../helper.ts';
import { SETTINGS, startReceiver, until } from './receiver.ts';
import { builtInType } from '../record-types.ts';

test('per-subscription delivery metrics', async (t) => {
  const store = await emptyStore(t, 'memory');
  const good = await startReceiver(t);
  const bad = await startReceiver(t);
  bad.answer = () => ({ status: 500 });
  for (const [client, receiver] of [
    ['good', good],
    ['bad', bad],
  ] as const) {
    await store.subscriptions.add({ client, events: ['death.registered'], fields: [] });
    await store.webhooks.setEndpoint(client, { url: receiver.url }, { secret: newSecret() });
  }
  const registry = new Registry();
  const delivery = startConfiguredDelivery(
    { ...SETTINGS, retryMs: 60_000 },
    store,
    store.descriptions,
    { info() {}, warn() {} },
    registry,
    { pollMs: 50, backoff: () => 50 },
  );
  onEnd(t, () => delivery.stop());
  await loadSources(store.writer, builtInType('death'), [deaths([1, 2, 3])]);
  // A receiver sees a request before the sender has counted its answer and stored its position:
  // wait for the metrics to settle there, then check the rest.
  let text = '';
  const value = (line: RegExp) => Number(line.exec(text)?.[1]);
  const delivered = /^lev_webhook_delivered_total\{subscription="good"\} (\S+)$/m;
  const failedAttempts = /^lev_webhook_failed_attempts_total\{subscription="bad"\} (\S+)$/m;
  const goodOldest = /^lev_webhook_oldest_undelivered_seconds\{subscription="good"\} (\S+)$/m;
  await until(async () => {
    text = await registry.metrics();
    return value(delivered) === 3 && value(failedAttempts) >= 3 && value(goodOldest) === 0;
  }, 'deliveries and failures');
  assert.equal(good.taken().length, 3);
  assert.ok(value(failedAttempts) >= 3);
  assert.ok(value(/^lev_webhook_retries_scheduled_total\{subscription="bad"\} (\S+)$/m) >= 2);
  assert.equal(value(/^lev_webhook_retrying\{subscription="bad"\} (\S+)$/m), 1);
  assert.equal(value(/^lev_webhook_retrying\{subscription="good"\} (\S+)$/m), 0);
  assert.ok(value(/^lev_webhook_oldest_undelivered_seconds\{subscription="bad"\} (\S+)$/m) > 0);
  assert.equal(value(/^lev_webhook_delivery_latency_seconds_count\{subscription="good"\} (\S+)$/m), 3);
  assert.match(text, /^# TYPE lev_webhook_dead_lettered_total counter$/m);
});

test('lev_feed_lag_positions of a client that only has events pushed counts from its delivery position', async (t) => {
  const store = await emptyStore(t, 'memory');
  const receiver = await startReceiver(t);
  await store.subscriptions.add({ client: 'pushed', events: ['death.registered'], fields: [] });
  await store.webhooks.setEndpoint('pushed', { url: receiver.url }, { secret: newSecret() });
  await store.subscriptions.add({ client: 'reader', events: ['death.registered'], fields: [] });
  const app = await startApp(t, store);
  const delivery = startConfiguredDelivery(SETTINGS, store, store.descriptions, { info() {}, warn() {} }, undefined, {
    pollMs: 50,
  });
  onEnd(t, () => delivery.stop());
  await loadSources(store.writer, builtInType('death'), [deaths([1, 2, 3])]);
  await until(() => receiver.taken().length === 3, 'the deliveries');
  await until(async () => (await store.webhooks.get('pushed'))?.deliveredThrough === 3, 'the position recorded');
  const metrics = (await app.get('/metrics', {})).text;
  assert.match(metrics, /^lev_feed_lag_positions\{client="pushed"\} 0$/m);
  // A client that neither read nor was pushed anything lags by the whole feed.
  assert.match(metrics, /^lev_feed_lag_positions\{client="reader"\} 3$/m);
});
