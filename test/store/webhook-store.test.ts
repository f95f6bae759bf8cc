/**
 * The webhook store's dead letters on each store, in feed order: listed, limited and queued again by
 * position as a number, across a power of ten, where positions ordered as text would put 10 before 9.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSources } from '../../src/load/loader.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { deaths } from '../death-source.ts';
import { emptyStore, storeKinds } from '../helper.ts';
import { builtInType } from '../record-types.ts';

for (const kind of await storeKinds()) {
  test(`${kind}: dead letters are listed and queued again in feed order, 9 before 10 before 100`, async (t) => {
    const store = await emptyStore(t, kind);
    await store.subscriptions.add({ client: 'failing', events: ['death.registered'], fields: [] });
    assert.equal(
      await store.webhooks.setEndpoint('failing', { url: 'https://receiver.example' }, { secret: newSecret() }),
      true,
    );
    await loadSources(store.writer, builtInType('death'), [deaths([990000001])]);
    const [lease] = await store.webhooks.claim('test', 60_000, 1);
    assert.equal(lease.endpoint.client, 'failing');
    for (const position of [9, 10, 100]) {
      const dead = { kind: 'dead', position, attempts: 3, status: 500, error: 'the receiver answered 500' } as const;
      assert.ok(await store.webhooks.record(lease, dead, 60_000));
    }
    await store.webhooks.release(lease);

    const positions = (letters: readonly { position: number }[]) => letters.map((letter) => letter.position);
    assert.deepEqual(positions(await store.webhooks.deadLetters('failing')), [9, 10, 100]);
    assert.deepEqual(positions(await store.webhooks.deadLetters('failing', 2)), [9, 10], 'the first two');
    assert.equal(await store.webhooks.redeliver('failing', {}), 3);
    assert.deepEqual(positions(await store.webhooks.queued('failing', 2)), [9, 10], 'the first two queued');
  });
}
