/**
 * The live mock: the built-in records announced as registered at start, an invented registration
 * added every MOCK_EVENT_INTERVAL_S (none when 0), at most MOCK_ADDED_LIMIT, each fetchable at its
 * event's source and subject.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openBackend } from '../../src/backend/open.ts';
import { MOCK_ADDED_LIMIT, startLiveMock } from '../../src/mock/live.ts';
import { mockRecords } from '../../src/mock/dataset.ts';
import { eventTypes } from '../../src/records/changes.ts';
import { emptyStore, startApp, testConfig } from '../helper.ts';
import { builtInTypes as records, builtInScenarios, builtInServiceTypes, builtInTypes } from '../record-types.ts';

const ALL = eventTypes(records);

test('the mock starts with every built-in record announced as registered, then adds one every interval', async (t) => {
  const backend = await openBackend(testConfig({ MOCK_EVENT_INTERVAL_S: '1' }), builtInServiceTypes);
  t.after(() => backend.close());
  const builtIn = Object.values(mockRecords(builtInTypes, builtInScenarios)).reduce(
    (sum, list) => sum + list.length,
    0,
  );
  const start = await backend.events.read(0, ALL, 1000);
  assert.equal(start.events.length, builtIn);
  assert.ok(start.events.every((event) => event.type.endsWith('.registered')));
  await backend.events.changed(3000);
  const added = await backend.events.read(start.next, ALL, 1000);
  assert.equal(added.events.length, 1);
  const [event] = added.events;
  assert.equal(event.type, `${event.recordType}.registered`);
  assert.ok(await backend.records.lookupJson(event.recordType, String(event.recordId)));
});

test('MOCK_EVENT_INTERVAL_S=0 adds none', async (t) => {
  const backend = await openBackend(testConfig({ MOCK_EVENT_INTERVAL_S: '0' }), builtInServiceTypes);
  t.after(() => backend.close());
  const { head } = await backend.events.bounds(new Date(0));
  await new Promise((resolve) => setTimeout(resolve, 1200));
  assert.equal((await backend.events.bounds(new Date(0))).head, head);
});

test(
  'invented registrations are of every type, fetchable ' + 'over HTTP at source/subject, and stop at the limit',
  async (t) => {
    const store = await emptyStore(t, 'memory');
    let turn = 0;
    const types = records.map((record) => record.name);
    const live = startLiveMock(
      store.writer,
      0,
      (error) => assert.fail(error),
      () => (turn++ % types.length) / types.length,
      records,
    );
    for (let i = 0; i < 2 * types.length; i++) assert.equal(await live.addOne(), true);
    const { events } = await store.events.read(0, ALL, 100);
    assert.deepEqual(
      events.map((e) => e.type),
      [...types, ...types].map((type) => `${type}.registered`),
    );
    const app = await startApp(t, store);
    const { body } = await app.get('/v1/events');
    for (const event of body.events)
      assert.equal((await app.get(`${event.source}/${event.subject}`)).status, 200, event.source);
    for (let i = 8; i < MOCK_ADDED_LIMIT; i++) await live.addOne();
    assert.equal(await live.addOne(), false);
    assert.equal((await store.events.bounds(new Date(0))).head, MOCK_ADDED_LIMIT);
  },
);
