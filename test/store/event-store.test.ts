/**
 * The change feed's contract, run against every backend: the events a write makes (one per new or
 * changed registration, the update's reason derived from the description, none for an unchanged
 * record or a failed write), how they are read, retention, the wait signal, and subscriptions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileReason, reasonRules } from '../../src/records/changes.ts';
import { birth as birthDescription } from '../../src/records/types/birth.ts';
import { death as deathDescription } from '../../src/records/types/death.ts';
import type { StoredRecord } from '../../src/model/records.ts';
import { SubscriptionExists } from '../../src/model/events.ts';
import { emptyStore, recordTypes, storeKinds } from '../helper.ts';

const types = new Map(recordTypes().map((type) => [type.description.name, type]));

function stored(type: string, data: Record<string, unknown>): StoredRecord {
  const result = types.get(type)!.toStored(data);
  if ('reason' in result) throw new Error(`test record ${JSON.stringify(data)}: ${result.reason}`);
  return result;
}

const birth = (id: number, status: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
  stored('birth', {
    id,
    child: { forenames: 'Ada', surname: 'Feed', dateOfBirth: '2001-01-01' },
    status: { blocked: false, correction: 'None', marginalNote: 'None', cancelled: false, ...status },
    ...extra,
  });
const death = (id: number, status: Record<string, unknown> = {}) =>
  stored('death', {
    id,
    deceased: { forenames: 'Bo', surname: 'Feed', dateOfDeath: '2020-02-02' },
    status: { blocked: false, ...status },
  });

const summary = (events: { type: string; recordId: number; reason?: string }[]) =>
  events.map((e) => [e.type, e.recordId, e.reason ?? null]);
const ALL = ['birth.registered', 'birth.updated', 'death.registered', 'death.updated'];

test('reasons are derived from the paths the descriptions declare, and a path naming no field fails at once', () => {
  const reason = compileReason(birthDescription);
  const base = birth(1).data as Record<string, any>;
  const withStatus = (status: Record<string, unknown>) => ({ ...base, status: { ...base.status, ...status } });
  assert.equal(reason(base, withStatus({ cancelled: true })), 'cancelled');
  assert.equal(reason(base, { ...base, nextRegistration: { id: 2 } }), 'replaced');
  assert.equal(reason(base, withStatus({ blocked: true })), 'blocked');
  assert.equal(reason(withStatus({ blocked: true }), base), 'unblocked');
  assert.equal(reason(base, withStatus({ correction: 'Clerical error' })), 'corrected');
  assert.equal(reason(base, withStatus({ marginalNote: 'Name changed' })), 'marginal-note');
  assert.equal(reason(base, { ...base, entryNumber: 9 }), 'other');
  // Death has no cancelled flag: its rules start at replaced.
  assert.deepEqual(
    reasonRules(deathDescription).map((r) => r.reason),
    ['replaced', 'blocked', 'unblocked', 'corrected', 'marginal-note'],
  );
  assert.throws(
    () => reasonRules({ ...deathDescription, changes: { correction: 'status.corection' } }),
    /status\.corection/,
  );
});

for (const kind of await storeKinds()) {
  test(`change feed contract (${kind})`, async (t) => {
    const store = await emptyStore(t, kind);
    const { events: feed, subscriptions } = store;

    await t.test(
      'new registrations make registered events, numbered from 1 in id order; an unchanged reload makes none',
      async () => {
        assert.deepEqual(await feed.read(0, ALL, 100), { events: [], next: 0 });
        await store.upsert('birth', [birth(12), birth(11)]);
        await store.upsert('death', [death(21)]);
        await store.upsert('birth', [birth(11), birth(12)]);
        const page = await feed.read(0, ALL, 100);
        assert.deepEqual(summary(page.events), [
          ['birth.registered', 11, null],
          ['birth.registered', 12, null],
          ['death.registered', 21, null],
        ]);
        assert.deepEqual(
          page.events.map((e) => e.position),
          [1, 2, 3],
        );
        assert.equal(page.next, 3);
        for (const event of page.events) {
          assert.match(event.time, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          assert.ok(Math.abs(Date.parse(event.time) - Date.now()) < 60_000);
        }
      },
    );

    await t.test('each kind of change is named by its reason, in the write that made it', async () => {
      const before = (await feed.bounds(new Date(0))).head;
      await store.upsert('birth', [
        birth(11, { correction: 'Clerical error' }),
        birth(12, { marginalNote: 'Re-registered' }, { nextRegistration: { id: 13 } }),
        birth(13),
      ]);
      await store.upsert('birth', [birth(11, { correction: 'Clerical error', blocked: true })]);
      await store.upsert('birth', [birth(11, { correction: 'Clerical error', blocked: false })]);
      await store.upsert('birth', [birth(13, { cancelled: true })]);
      await store.upsert('death', [death(21, { marginalNote: 'Note' })]);
      await store.upsert('birth', [birth(13, { cancelled: true }, { entryNumber: 4 })]);
      const page = await feed.read(before, ALL, 100);
      assert.deepEqual(summary(page.events), [
        ['birth.updated', 11, 'corrected'],
        // The marginal note changed too, but a link to a re-registration comes first.
        ['birth.updated', 12, 'replaced'],
        ['birth.registered', 13, null],
        ['birth.updated', 11, 'blocked'],
        ['birth.updated', 11, 'unblocked'],
        ['birth.updated', 13, 'cancelled'],
        ['death.updated', 21, 'marginal-note'],
        ['birth.updated', 13, 'other'],
      ]);
      assert.deepEqual(
        page.events.map((e) => e.position),
        [4, 5, 6, 7, 8, 9, 10, 11],
      );
    });

    await t.test('a write that fails leaves neither records nor events', async () => {
      const { head } = await feed.bounds(new Date(0));
      await assert.rejects(
        store.writer.write(
          'birth',
          (async function* () {
            yield [{ id: 31, json: JSON.stringify(birth(31).data), keys: birth(31).keys }];
            throw new Error('the source broke');
          })(),
        ),
        /the source broke/,
      );
      assert.equal(await store.lookupJson('birth', '31'), undefined);
      assert.equal((await feed.bounds(new Date(0))).head, head);
      assert.deepEqual((await feed.read(head, ALL, 10)).events, []);
    });

    await t.test('reads filter by type, stop at the limit, and say where to go on from', async () => {
      const deaths = await feed.read(0, ['death.registered', 'death.updated'], 100);
      assert.deepEqual(summary(deaths.events), [
        ['death.registered', 21, null],
        ['death.updated', 21, 'marginal-note'],
      ]);
      // Not full: the next read starts after everything read, not after the last death.
      assert.equal(deaths.next, 11);
      const two = await feed.read(0, ALL, 2);
      assert.deepEqual(
        two.events.map((e) => e.position),
        [1, 2],
      );
      assert.equal(two.next, 2);
      assert.deepEqual(await feed.read(11, ALL, 5), { events: [], next: 11 });
      assert.deepEqual(await feed.read(0, [], 5), { events: [], next: 11 });
      // A read looks through a window of positions: a rare type's reader moves on by it.
      assert.deepEqual(await feed.read(0, ['marriage.registered'], 5, 4), { events: [], next: 4 });
      assert.deepEqual(summary((await feed.read(0, ['death.updated'], 5, 4)).events), []);
      const windowed = await feed.read(4, ['death.updated'], 5, 7);
      assert.deepEqual(summary(windowed.events), [['death.updated', 21, 'marginal-note']]);
      assert.equal(windowed.next, 11);
    });

    await t.test('retention: bounds, the position before a time, pruning', async () => {
      const now = new Date();
      assert.deepEqual(await feed.bounds(new Date(now.getTime() - 60_000)), { head: 11, expiredThrough: 0 });
      assert.deepEqual(await feed.bounds(new Date(now.getTime() + 60_000)), { head: 11, expiredThrough: 11 });
      assert.equal(await feed.positionBefore(new Date(now.getTime() - 60_000)), 0);
      assert.equal(await feed.positionBefore(new Date(now.getTime() + 60_000)), 11);
      assert.equal(await feed.prune(new Date(now.getTime() - 60_000)), 0);
      assert.equal(await feed.prune(new Date(now.getTime() + 60_000)), 11);
      assert.deepEqual(await feed.read(0, ALL, 100), { events: [], next: 11 });
      assert.deepEqual(await feed.bounds(new Date(0)), { head: 11, expiredThrough: 11 });
      // Positions go on after a prune.
      await store.upsert('death', [death(22)]);
      assert.deepEqual(
        (await feed.read(0, ALL, 100)).events.map((e) => e.position),
        [12],
      );
    });

    await t.test('a waiting reader hears a commit, and stops waiting when told', async () => {
      const started = Date.now();
      const heard = feed.changed(10_000);
      // The PostgreSQL listener connects on the first wait.
      await new Promise((resolve) => setTimeout(resolve, kind === 'postgres' ? 300 : 10));
      await store.upsert('death', [death(23)]);
      await heard;
      assert.ok(Date.now() - started < 5000, 'woken by the commit, not by the time');
      const controller = new AbortController();
      const stopped = feed.changed(10_000, controller.signal);
      controller.abort();
      await stopped;
      const timed = Date.now();
      await feed.changed(50);
      assert.ok(Date.now() - timed < 2000);
    });

    await t.test('subscriptions: add, get, list with lag, pause, resume, acknowledge, remove', async () => {
      await subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: ['deceased.dateOfDeath'] });
      await subscriptions.add({ client: 'hmrc', events: ['birth.registered', 'birth.updated'], fields: [] });
      await assert.rejects(
        subscriptions.add({ client: 'dwp', events: ['death.updated'], fields: [] }),
        SubscriptionExists,
      );
      const dwp = await subscriptions.get('dwp');
      assert.deepEqual(
        { ...dwp, createdAt: undefined },
        {
          client: 'dwp',
          events: ['death.registered'],
          fields: ['deceased.dateOfDeath'],
          paused: false,
          createdAt: undefined,
        },
      );
      assert.equal(await subscriptions.get('nobody'), undefined);
      assert.equal(await subscriptions.setPaused('dwp', true), true);
      assert.equal((await subscriptions.get('dwp'))?.paused, true);
      assert.equal(await subscriptions.setPaused('dwp', false), true);
      assert.equal(await subscriptions.setPaused('nobody', true), false);
      await subscriptions.acknowledge('hmrc', 10);
      await subscriptions.acknowledge('nobody', 10);
      const listed = await subscriptions.list();
      assert.deepEqual(
        listed.map((s) => [s.client, s.paused, s.acknowledged ?? null, s.lag]),
        [
          ['dwp', false, null, 13],
          ['hmrc', false, 10, 3],
        ],
      );
      assert.ok(listed[1].acknowledgedAt);
      assert.equal(await subscriptions.remove('dwp'), true);
      assert.equal(await subscriptions.remove('dwp'), false);
      assert.deepEqual(
        (await subscriptions.list()).map((s) => s.client),
        ['hmrc'],
      );
    });

    await t.test('the records an event names are read by id, for the fields a subscription includes', async () => {
      const found = await feed.recordsJson('birth', [11, 13, 999]);
      assert.deepEqual([...found.keys()].sort(), [11, 13]);
      assert.equal(JSON.parse(found.get(11)!).id, 11);
    });
  });
}
