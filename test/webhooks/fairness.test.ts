/**
 * Fair delivery on the real PostgreSQL server: slow receivers (each answer after 1.5 s) with more
 * events than slots cannot starve a fast one. A turn ends after WEBHOOK_TURN_S, the subscription
 * waiting longest goes next, and slow subscriptions hold at most their share of the slots; the
 * fast receiver's p99 from commit to 2xx stays within its bound while the slow ones are served.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSources } from '../../src/load/loader.ts';
import { slowSlots } from '../../src/webhooks/fairness.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { deaths } from '../death-source.ts';
import { emptyStore, postgresAvailable, onEnd } from '../helper.ts';
import { type Receiver, SETTINGS, startReceiver, until } from './receiver.ts';
import { builtInType } from '../record-types.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

/**
 * The fast receiver's bound: one slow answer (a slot may be mid-POST when the share is learnt) plus a
 * margin for a shared machine.
 */
const FAST_P99_MS = 2500;

test('slow slots share: at least one, never all', () => {
  assert.equal(slowSlots(1, 0.5), 1);
  assert.equal(slowSlots(2, 0.5), 1);
  assert.equal(slowSlots(2, 1), 1);
  assert.equal(slowSlots(8, 0.5), 4);
  assert.equal(slowSlots(8, 0.01), 1);
  assert.equal(slowSlots(8, 1), 7);
});

test('three slow receivers and two slots: the fast one is served within its bound, the slow ones still progress', {
  skip,
  timeout: 90_000,
}, async (t) => {
  const store = await emptyStore(t, 'postgres');
  const slow: Receiver[] = [];
  for (const client of ['slow-1', 'slow-2', 'slow-3']) {
    const receiver = await startReceiver(t);
    receiver.answer = () => ({ status: 204, delayMs: 1500 });
    slow.push(receiver);
    await store.subscriptions.add({ client, events: ['death.registered'], fields: [] });
    await store.webhooks.setEndpoint(client, { url: receiver.url }, { secret: newSecret() });
  }
  const fast = await startReceiver(t);
  await store.subscriptions.add({ client: 'fast', events: ['death.registered'], fields: [] });
  await store.webhooks.setEndpoint('fast', { url: fast.url }, { secret: newSecret() });
  const delivery = startConfiguredDelivery(
    { ...SETTINGS, timeoutMs: 5000, leaseMs: 20_000, turnMs: 1000, slowShare: 0.5 },
    store,
    store.descriptions,
    { info() {}, warn() {} },
    undefined,
    { pollMs: 100, slots: 2 },
  );
  onEnd(t, () => delivery.stop());

  // 20 events, committed a few at a time over about 8 seconds.
  const ids = Array.from({ length: 20 }, (_, index) => 1000 + index);
  for (let batch = 0; batch < 5; batch++) {
    await loadSources(store.writer, builtInType('death'), [deaths(ids.slice(batch * 4, batch * 4 + 4))]);
    await new Promise((resolve) => setTimeout(resolve, 1600));
  }
  await until(() => fast.taken().length === 20, 'every event at the fast receiver', 15_000);
  const latencies = fast.received.map((r) => r.at - Date.parse(JSON.parse(r.body).time)).sort((a, b) => a - b);
  const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1];
  assert.ok(p99 <= FAST_P99_MS, `fast receiver p99 ${p99} ms (all: ${latencies.join(', ')})`);
  assert.deepEqual(
    fast.taken(),
    [...fast.taken()].sort((a, b) => a - b),
  );
  // The slow ones were served meanwhile: each has had turns, in feed order.
  for (const receiver of slow) {
    assert.ok(receiver.taken().length >= 2, `a slow receiver took ${receiver.taken().length}`);
    assert.deepEqual(
      receiver.taken(),
      [...receiver.taken()].sort((a, b) => a - b),
    );
  }
});
