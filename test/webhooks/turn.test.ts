/**
 * A turn stops before the next event once its subscription is paused or removed, on both stores:
 * a slow receiver is in the middle of a turn of many events when the operator pauses it. The
 * receiver holds each answer far longer than ACTIVE_EVERY_MS, so the answer the turn had when it
 * sent the event in flight is too old for the next one: it must ask again, and find the pause.
 * (The bound itself, step by step on a clock of its own, is active.unit.test.ts's.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSources } from '../../src/load/loader.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { ACTIVE_EVERY_MS } from '../../src/webhooks/active.ts';
import { deaths } from '../death-source.ts';
import { emptyStore, storeKinds, onEnd } from '../helper.ts';
import { SETTINGS, startReceiver, until } from './receiver.ts';
import { builtInType } from '../record-types.ts';

for (const kind of await storeKinds()) {
  for (const stop of ['pause', 'remove'] as const) {
    test(`${kind}: ${stop} takes effect before the next event of a turn in progress`, async (t) => {
      const store = await emptyStore(t, kind);
      const receiver = await startReceiver(t);
      const holdMs = 600;
      assert.ok(holdMs > 4 * ACTIVE_EVERY_MS);
      receiver.answer = () => ({ status: 204, delayMs: holdMs });
      await store.subscriptions.add({ client: 'slow', events: ['death.registered'], fields: [] });
      await store.webhooks.setEndpoint('slow', { url: receiver.url }, { secret: newSecret() });
      // A turn long enough for every event, so only the pause can stop it.
      const delivery = startConfiguredDelivery(
        { ...SETTINGS, timeoutMs: 3000, leaseMs: 10_000, turnMs: 60_000 },
        store,
        store.descriptions,
        { info() {}, warn() {} },
        undefined,
        { pollMs: 50, slots: 1 },
      );
      onEnd(t, () => delivery.stop());
      await loadSources(store.writer, builtInType('death'), [deaths([1, 2, 3, 4, 5, 6, 7, 8])]);
      await until(() => receiver.received.length === 1, 'the first event');
      if (stop === 'pause') assert.equal(await store.subscriptions.setPaused('slow', true), true);
      else assert.equal(await store.subscriptions.remove('slow'), true);
      // The event in flight is answered; nothing after it is sent, though the turn had seven more to go.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(
        receiver.received.length,
        1,
        `sent after the ${stop}: ${receiver.received.map((r) => r.position).join(', ')}`,
      );
      if (stop === 'pause') {
        // Resumed, it carries on from the event after the one taken.
        await until(
          async () => (await store.webhooks.get('slow'))?.deliveredThrough === 1,
          'the first position recorded',
        );
        await store.subscriptions.setPaused('slow', false);
        await until(() => receiver.received.length >= 2, 'the next event after resuming');
        assert.equal(receiver.received[1].position, 2);
      }
    });
  }
}
