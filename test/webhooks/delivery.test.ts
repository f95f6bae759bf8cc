/**
 * Push delivery end to end on both stores, with real receivers over real sockets: signatures
 * verified on the receiver's side by the Standard Webhooks library (v1, across a rotation) and
 * Ed25519 (v1a, which that library lacks) by node:crypto from the published key; events in feed
 * order; a receiver down for a while then taking everything in order; Retry-After; 410 disabling
 * the subscription; dead letters listed (command store and HTTP route) and redelivered.
 */
import assert from 'node:assert/strict';
import { createPublicKey, verify } from 'node:crypto';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import type { WebhooksConfig } from '../../src/config/events.ts';
import { type Source, loadSources } from '../../src/load/loader.ts';
import { newSecret, newSigningKey, publicKeyOf } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import type { DeliveryOptions } from '../../src/webhooks/worker.ts';
import { type TestStore, CALLER, emptyStore, startApp, storeKinds, trailEntries, onEnd } from '../helper.ts';
import { SETTINGS, startReceiver, until } from './receiver.ts';
import { builtInType } from '../record-types.ts';

type Json = Record<string, any>;
const death = (id: number): Json => ({
  id,
  deceased: {
    forenames: 'Private',
    surname: `Person${id}`,
    dateOfDeath: '2024-03-01',
    dateOfBirth: '1940-01-01',
    causeOfDeath: 'Undisclosed',
  },
  status: { blocked: false, correction: 'None', marginalNote: 'None' },
});
const source = (entries: readonly Json[]): Source => ({
  name: 'deaths',
  size: undefined,
  open: () => [entries.map((entry) => JSON.stringify(entry)).join('\n')],
});
const loadDeaths = (store: TestStore, ids: readonly number[]) =>
  loadSources(store.writer, builtInType('death'), [source(ids.map(death))]);

const quiet = { info() {}, warn() {} };

function deliver(
  store: TestStore,
  t: { after(fn: () => unknown): void },
  settings: Partial<WebhooksConfig> = {},
  overrides: Partial<DeliveryOptions> = {},
) {
  const delivery = startConfiguredDelivery({ ...SETTINGS, ...settings }, store, store.descriptions, quiet, undefined, {
    pollMs: 50,
    backoff: () => 100,
    slots: 2,
    ...overrides,
  });
  onEnd(t, () => delivery.stop());
  return delivery;
}

async function subscribe(store: TestStore, client: string, url: string, keys: { secret: string; signingKey?: string }) {
  await store.subscriptions.add({ client, events: ['death.registered', 'death.updated'], fields: [] });
  assert.equal(await store.webhooks.setEndpoint(client, { url }, keys), true);
}

/** Verifies a v1a signature as a receiver would, from the `whpk_` key the service published. */
function verifiesEd25519(publishedKey: string, headers: Record<string, string>, body: string): boolean {
  const raw = Buffer.from(publishedKey.slice('whpk_'.length), 'base64');
  const key = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), raw]),
    format: 'der',
    type: 'spki',
  });
  const content = Buffer.from(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`);
  return headers['webhook-signature']
    .split(' ')
    .filter((signature) => signature.startsWith('v1a,'))
    .some((signature) => verify(null, content, key, Buffer.from(signature.slice(4), 'base64')));
}

for (const kind of await storeKinds()) {
  test(
    `${kind}: each event POSTed once in feed order, signed v1 and v1a, verified by standardwebhooks ` +
      `across a rotation`,
    async (t) => {
      const store = await emptyStore(t, kind);
      await loadDeaths(store, [1]); // before the webhook: not sent
      const receiver = await startReceiver(t);
      const secret = newSecret();
      const signingKey = newSigningKey();
      await subscribe(store, 'dwp', receiver.url, { secret, signingKey });
      deliver(store, t);

      await loadDeaths(store, [2, 3, 4]);
      await until(() => receiver.received.length >= 3, 'three deliveries');
      const published = publicKeyOf(signingKey);
      // The public key as the service publishes it to the client.
      const app = await startApp(t, store);
      const webhook = await app.get('/v1/events/webhook', { ...CALLER, 'x-auth-aud': 'dwp' });
      assert.equal(webhook.body.publicKey, published);
      assert.equal(webhook.body.state, 'delivering');
      assert.ok(!JSON.stringify(webhook.body).includes(secret), 'never the secret');
      for (const request of receiver.received) {
        const event = new Webhook(secret).verify(request.body, request.headers) as Json;
        assert.equal(event.specversion, '1.0');
        assert.equal(request.id, `msg_lev_${event.id}`);
        assert.equal(request.headers['content-type'], 'application/json');
        assert.ok(verifiesEd25519(published, request.headers, request.body), 'v1a verifies');
        assert.ok(
          !verifiesEd25519(publicKeyOf(newSigningKey()), request.headers, request.body),
          'v1a fails with another key',
        );
      }
      assert.deepEqual(
        receiver.received.map((r) => JSON.parse(r.body).subject),
        ['2', '3', '4'],
      );
      assert.deepEqual(
        receiver.taken(),
        [...receiver.taken()].sort((a, b) => a - b),
      );

      // Rotation: both secrets sign during the grace, and the library verifies with either.
      const next = newSecret();
      await store.webhooks.rotate('dwp', next, 60_000);
      await loadDeaths(store, [5]);
      await until(() => receiver.received.length >= 4, 'the delivery after the rotation');
      const rotated = receiver.received[3];
      assert.equal(JSON.parse(rotated.body).subject, '5');
      new Webhook(secret).verify(rotated.body, rotated.headers);
      new Webhook(next).verify(rotated.body, rotated.headers);
      assert.equal(rotated.headers['webhook-signature'].split(' ').length, 3);

      // Grace over: only the new secret signs.
      await store.webhooks.rotate('dwp', newSecret(), 0);
      const latest = (await store.webhooks.get('dwp'))!.secret;
      await loadDeaths(store, [6]);
      await until(() => receiver.received.length >= 5, 'the delivery after the grace');
      const last = receiver.received[4];
      new Webhook(latest).verify(last.body, last.headers);
      assert.throws(() => new Webhook(next).verify(last.body, last.headers), /No matching signature/);

      // Every attempt audited, naming the subscription, event and record, and the outcome. The
      // receiver counts a request before it answers, and the entry is made once the answer is in.
      const delivered = async () => (await trailEntries(store)).filter((entry) => entry.username === 'lev-api-deliver');
      await until(async () => (await delivered()).length >= 5, 'the last attempt audited');
      const entries = await delivered();
      assert.equal(entries.length, 5);
      assert.deepEqual(entries[0].records, [{ type: 'death', id: 2 }]);
      assert.equal(entries[0].client, 'dwp');
      assert.match(entries[0].query, /outcome=delivered status=204 attempt=1/);
      assert.deepEqual(entries[0].events, [JSON.parse(receiver.received[0].body).id]);
    },
  );

  test(
    `${kind}: a receiver down for a while takes everything afterwards, in order; Retry-After is honoured; ` +
      `only its own subscription is held back`,
    async (t) => {
      const store = await emptyStore(t, kind);
      const down = await startReceiver(t);
      const healthy = await startReceiver(t);
      await subscribe(store, 'down', down.url, { secret: newSecret() });
      await subscribe(store, 'healthy', healthy.url, { secret: newSecret() });
      let up = false;
      let limited = 0;
      down.answer = ({ count }) =>
        count === 0
          ? (limited++, { status: 429, headers: { 'retry-after': '1' } })
          : up
            ? { status: 200 }
            : { status: 503 };
      deliver(store, t);
      await loadDeaths(store, [1, 2, 3]);
      await loadDeaths(store, [4, 5]);
      await until(() => healthy.taken().length === 5, 'the healthy receiver taking all five');
      await until(() => down.received.length >= 3, 'retries at the receiver that is down');
      // 429 with Retry-After: 1 s before the next attempt (the backoff is 100 ms otherwise).
      assert.ok(down.received[1].at - down.received[0].at >= 950, `${down.received[1].at - down.received[0].at} ms`);
      assert.ok(down.received[2].at - down.received[1].at < 900);
      assert.equal(limited, 1);
      const listed = (await store.webhooks.list()).find((w) => w.client === 'down')!;
      assert.ok(listed.attempts >= 2 && listed.failingSince && listed.oldestUndeliveredAt, JSON.stringify(listed));
      assert.ok(
        down.received.every((r) => JSON.parse(r.body).subject === '1'),
        'nothing after the first until it is taken',
      );
      up = true;
      await until(() => down.taken().length === 5, 'everything, once the receiver is up');
      assert.deepEqual(down.taken().map(String), [...new Set(down.received.map((r) => JSON.parse(r.body).id))]);
      assert.deepEqual(
        down.received.filter((r) => r.status < 300).map((r) => JSON.parse(r.body).subject),
        ['1', '2', '3', '4', '5'],
      );
    },
  );

  test(
    `${kind}: 410 Gone disables the subscription; exhausted ` + `retries dead-letter events, listed and redelivered`,
    async (t) => {
      const store = await emptyStore(t, kind);
      const gone = await startReceiver(t);
      gone.answer = () => ({ status: 410 });
      const failing = await startReceiver(t);
      failing.answer = () => ({ status: 500 });
      await subscribe(store, 'gone', gone.url, { secret: newSecret() });
      await subscribe(store, 'failing', failing.url, { secret: newSecret() });
      deliver(store, t, { retryMs: 400 });
      await loadDeaths(store, [1, 2]);
      await until(
        async () => Boolean((await store.webhooks.get('gone'))?.disabledAt),
        'the 410 to disable the subscription',
      );
      assert.equal((await store.webhooks.get('gone'))!.disabledReason, 'the receiver answered 410 Gone');
      await until(async () => (await store.webhooks.deadLetters('failing')).length === 2, 'two dead letters');
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(gone.received.length, 1, 'nothing sent after the 410');

      const letters = await store.webhooks.deadLetters('failing');
      assert.deepEqual(
        letters.map((l) => [l.lastStatus, l.redeliver]),
        [
          [500, false],
          [500, false],
        ],
      );
      assert.ok(letters[0].attempts >= 2);
      const app = await startApp(t, store);
      const listed = await app.get('/v1/events/dead-letters', { ...CALLER, 'x-auth-aud': 'failing' });
      assert.equal(listed.status, 200);
      assert.deepEqual(
        listed.body.deadLetters.map((l: Json) => [l.id, l.status, l.queued]),
        letters.map((l) => [String(l.position), 500, false]),
      );
      assert.deepEqual((await app.get('/v1/events/dead-letters')).body, { deadLetters: [] });
      const webhook = await app.get('/v1/events/webhook', { ...CALLER, 'x-auth-aud': 'gone' });
      assert.equal(webhook.status, 200);
      assert.deepEqual(
        { ...webhook.body, url: undefined },
        { url: undefined, state: 'disabled', deliveredThrough: '0', deadLetters: 0 },
      );
      assert.equal((await app.get('/v1/events/webhook')).status, 404);

      failing.answer = () => ({ status: 200 });
      const before = failing.received.length;
      assert.equal(await store.webhooks.redeliver('failing', { position: letters[1].position }), 1);
      await until(async () => (await store.webhooks.deadLetters('failing')).length === 1, 'the one redelivered');
      assert.equal(await store.webhooks.redeliver('failing', {}), 1);
      await until(async () => (await store.webhooks.deadLetters('failing')).length === 0, 'all redelivered');
      const redelivered = failing.received.slice(before);
      assert.deepEqual(
        redelivered.map((r) => r.position),
        [letters[1].position, letters[0].position],
      );
      assert.ok(
        redelivered.every((r) => r.id === `msg_lev_${r.position}`),
        'the same webhook-id as before',
      );
    },
  );
}
