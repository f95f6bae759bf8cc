/**
 * Pushed events and the roles the operator recorded on a subscription, on both stores, with real
 * receivers over real sockets: fields rendered exactly as a lookup by a caller holding those roles
 * renders them (compared with the lookup itself, over HTTP), no event of a dataset the roles do not
 * read, thin events where no roles are recorded, and the fields named in each attempt's audit entry.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Source, loadSources } from '../../src/load/loader.ts';
import { readPath } from '../../src/records/define.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { startConfiguredDelivery } from '../../src/webhooks/start.ts';
import { CALLER, emptyStore, startApp, storeKinds, trailEntries, onEnd } from '../helper.ts';
import { type Receiver, SETTINGS, startReceiver, until } from './receiver.ts';
import { builtInType } from '../record-types.ts';

type Json = Record<string, any>;
const source = (entries: readonly Json[]): Source => ({
  name: 'records',
  size: undefined,
  open: () => [entries.map((entry) => JSON.stringify(entry)).join('\n')],
});
const death = (id: number, blocked = false): Json => ({
  id,
  deceased: {
    forenames: 'Private',
    surname: `Person${id}`,
    dateOfDeath: '2024-03-01',
    dateOfBirth: '1940-01-01',
    causeOfDeath: 'Undisclosed',
  },
  status: { blocked, correction: 'None', marginalNote: 'None' },
});
const birth = (id: number): Json => ({
  id,
  child: { forenames: `Child${id}`, surname: 'Private', dateOfBirth: '2024-01-01' },
  status: { blocked: false, correction: 'None', marginalNote: 'None', cancelled: false },
});
const FIELDS = ['deceased.dateOfDeath', 'deceased.causeOfDeath', 'child.surname'];
const EVENTS = ['death.registered', 'birth.registered'];

/**
 * Each event as first received. Delivery is at least once: on a starved machine a lease can run out
 * mid-turn and another slot send an event again, with the same webhook-id (workers.test.ts holds that).
 */
const bodies = (receiver: Receiver) =>
  receiver.received
    .filter((r, i) => receiver.received.findIndex((other) => other.id === r.id) === i)
    .map((r) => JSON.parse(r.body) as Json);
const distinctTaken = (receiver: Receiver) => new Set(receiver.taken()).size;

for (const kind of await storeKinds()) {
  test(
    `${kind}: pushed fields rendered as a lookup renders them for the roles recorded; no event of a ` +
      `dataset they do not read; thin without roles`,
    async (t) => {
      const store = await emptyStore(t, kind);
      const clients = {
        // The death role alone: death events, basic fields only; no births.
        'dwp-basic': { roles: ['death'] },
        // With full-details: the restricted field too.
        'dwp-full': { roles: ['death', 'full-details'] },
        // Verify-only roles read no dataset: nothing pushed.
        verifier: { roles: ['death-verify', 'birth-verify'] },
        // No roles recorded: every type it names, thin.
        unrecorded: {},
      } as const;
      const receivers: Record<string, Receiver> = {};
      for (const [client, { roles }] of Object.entries(clients) as [string, { roles?: readonly string[] }][]) {
        receivers[client] = await startReceiver(t);
        await store.subscriptions.add({ client, events: EVENTS, fields: FIELDS, ...(roles ? { roles } : {}) });
        await store.webhooks.setEndpoint(client, { url: receivers[client].url }, { secret: newSecret() });
      }
      const delivery = startConfiguredDelivery(
        SETTINGS,
        store,
        store.descriptions,
        { info() {}, warn() {} },
        undefined,
        {
          pollMs: 50,
          backoff: () => 100,
          slots: 4,
        },
      );
      onEnd(t, () => delivery.stop());

      await loadSources(store.writer, builtInType('death'), [source([death(11), death(12, true)])]);
      await loadSources(store.writer, builtInType('birth'), [source([birth(21)])]);
      await until(
        () =>
          distinctTaken(receivers['dwp-basic']) === 2 &&
          distinctTaken(receivers['dwp-full']) === 2 &&
          distinctTaken(receivers.unrecorded) === 3,
        'the deliveries',
      );

      const app = await startApp(t, store);
      for (const client of ['dwp-basic', 'dwp-full'] as const) {
        const events = bodies(receivers[client]);
        assert.deepEqual(
          events.map((e) => e.type),
          ['death.registered', 'death.registered'],
          `${client}: deaths only, no births without the birth role`,
        );
        for (const event of events) {
          // The lookup, by a caller holding the same roles, over HTTP.
          const lookup = await app.get(`${event.source}/${event.subject}`, {
            ...CALLER,
            'x-auth-roles': clients[client].roles.join(','),
          });
          assert.equal(lookup.status, 200);
          const expected = Object.fromEntries(
            ['deceased.dateOfDeath', 'deceased.causeOfDeath'].map((path) => [
              path,
              readPath(lookup.body, path) ?? null,
            ]),
          );
          assert.deepEqual(event.data.fields, expected, `${client}: ${event.subject} as the lookup shows it`);
        }
      }
      const [basic, blockedBasic] = bodies(receivers['dwp-basic']);
      assert.deepEqual(
        basic.data.fields,
        { 'deceased.dateOfDeath': '2024-03-01', 'deceased.causeOfDeath': null },
        'a restricted field is null without full-details',
      );
      assert.deepEqual(bodies(receivers['dwp-full'])[0].data.fields, {
        'deceased.dateOfDeath': '2024-03-01',
        'deceased.causeOfDeath': 'Undisclosed',
      });
      assert.deepEqual(
        blockedBasic.data.fields,
        { 'deceased.dateOfDeath': null, 'deceased.causeOfDeath': null },
        'nothing of a blocked registration',
      );

      const thin = bodies(receivers.unrecorded);
      assert.deepEqual(
        thin.map((e) => e.type),
        ['death.registered', 'death.registered', 'birth.registered'],
      );
      assert.ok(
        thin.every((e) => !('fields' in e.data)),
        'no fields without roles recorded',
      );

      // The verify-only client gets nothing; its position moves past the events all the same.
      await until(
        async () => (await store.webhooks.get('verifier'))!.deliveredThrough === 3,
        "the verifier's position past the events it does not receive",
      );
      assert.equal(receivers.verifier.received.length, 0);

      // Changing the roles takes effect from the next event: the birth role added, births with their field.
      assert.equal(await store.subscriptions.setRoles('dwp-basic', ['death', 'birth']), true);
      await loadSources(store.writer, builtInType('birth'), [source([birth(22)])]);
      await until(() => distinctTaken(receivers['dwp-basic']) === 3, 'the birth, now the birth role is recorded');
      assert.deepEqual(bodies(receivers['dwp-basic'])[2].data.fields, { 'child.surname': 'Private' });

      // Each attempt's audit entry names the fields it included, and only where it included some.
      // An entry commits after its 2xx (while the next event goes): wait for the birth's.
      let entries: Awaited<ReturnType<typeof trailEntries>> = [];
      const of = (client: string) => entries.filter((entry) => entry.client === client);
      await until(async () => {
        entries = (await trailEntries(store)).filter((entry) => entry.username === 'lev-api-deliver');
        return of('dwp-basic').length >= 3;
      }, "the birth's audit entry");
      // One entry an attempt: an event sent again (the same webhook-id) has one of its own, naming the same fields.
      const perEvent = (client: string) => [
        ...new Map(of(client).map((entry) => [entry.requestId, entry.fields])).values(),
      ];
      assert.deepEqual(perEvent('dwp-full'), [
        ['deceased.dateOfDeath', 'deceased.causeOfDeath'],
        ['deceased.dateOfDeath', 'deceased.causeOfDeath'],
      ]);
      assert.deepEqual(of('dwp-basic').at(-1)!.fields, ['child.surname']);
      assert.ok(of('unrecorded').every((entry) => !entry.fields?.length));
      assert.equal(of('verifier').length, 0);
    },
  );
}
