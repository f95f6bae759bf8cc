/**
 * Stopping the delivery workers: stop() ends once every slot has left its loop, whatever the slot was
 * doing when it was asked to stop. A store whose claims wait until the test answers them makes the
 * moment exact.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DeliveryOptions } from '../../src/webhooks/worker.ts';
import { startDelivery } from '../../src/webhooks/worker.ts';

/** Delivery over a store whose claims the test answers, and a feed that changes only when stopped. */
function heldDelivery(slots: number) {
  const claims: ((leases: never[]) => void)[] = [];
  let closed = false;
  const options = {
    store: {
      claim: () => new Promise<never[]>((resolve) => claims.push(resolve)),
      release: async () => {},
    },
    feed: {
      changed: (ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal }),
    },
    sender: { close: async () => void (closed = true) },
    log: { info() {}, warn() {} },
    leaseMs: 5000,
    retryMs: 60_000,
    slots,
    pollMs: 60_000,
  } as unknown as DeliveryOptions;
  return { delivery: startDelivery(options), claims, closed: () => closed };
}

test('stop() asked while the claims are out, which then find nothing due: every slot leaves its loop', async () => {
  const { delivery, claims, closed } = heldDelivery(2);
  while (claims.length < 2) await sleep(1);
  const stopped = delivery.stop();
  for (const answer of claims.splice(0)) answer([]);
  const outcome = await Promise.race([stopped.then(() => 'stopped'), sleep(2000, 'still running')]);
  assert.equal(outcome, 'stopped');
  assert.ok(closed(), 'the sender closed');
});
