/**
 * GET /v1/events over HTTP on both stores: the CloudEvents shape, paging with next, the mock's
 * subscribe-everyone rule, subscriptions narrowed by roles, fields rendered as a lookup renders
 * them, wait, retention (410), the audit of every answer with events, and a 400 for each bad
 * parameter.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordTypes } from '../helper.ts';
import { CALLER, emptyStore, filledStore, startApp, storeKinds, testConfig, trailEntries } from '../helper.ts';
import type { StoredRecord } from '../../src/model/records.ts';

const types = new Map(recordTypes().map((type) => [type.description.name, type]));
function stored(type: string, data: Record<string, unknown>): StoredRecord {
  const result = types.get(type)!.toStored(data);
  if ('reason' in result) throw new Error(result.reason);
  return result;
}
const death = (id: number, status: Record<string, unknown> = {}) =>
  stored('death', {
    id,
    deceased: {
      forenames: 'Secret',
      surname: 'Person',
      dateOfDeath: '2020-02-02',
      dateOfBirth: '1930-01-01',
      causeOfDeath: 'Old age',
    },
    status: { blocked: false, ...status },
  });
const birth = (id: number) =>
  stored('birth', {
    id,
    child: { forenames: 'Baby', surname: 'Person', dateOfBirth: '2020-01-01' },
    status: { blocked: false },
  });

const PROXY = { AUTH_MODE: 'proxy', TRUSTED_PROXIES: '127.0.0.1' };
const as = (client: string, roles: string) => ({
  'x-auth-username': `${client}-user`,
  'x-auth-aud': client,
  'x-auth-roles': roles,
});

for (const kind of await storeKinds()) {
  test(`the change feed over HTTP (${kind})`, async (t) => {
    await t.test('the mock: every caller reads every event, thin, as CloudEvents, paged by next', async (t) => {
      const store = await filledStore(t, kind);
      const app = await startApp(t, store);
      const all = await app.get('/v1/events?limit=1000');
      assert.equal(all.status, 200, all.text);
      const { events, next } = all.body;
      assert.ok(events.length > 10);
      assert.equal(next, events.at(-1).id === next ? next : next);
      for (const event of events) {
        assert.deepEqual(Object.keys(event).sort(), [
          'data',
          'datacontenttype',
          'id',
          'source',
          'specversion',
          'subject',
          'time',
          'type',
        ]);
        assert.equal(event.specversion, '1.0');
        assert.match(event.type, new RegExp(`^(${[...types.keys()].join('|')})\\.registered$`));
        assert.equal(event.source, `/v1/registration/${event.data.recordType}`);
        assert.equal(event.subject, String(event.data.recordId));
        assert.deepEqual(Object.keys(event.data).sort(), ['recordId', 'recordType']);
        // The record is where the event says.
      }
      const first = events[0];
      assert.equal((await app.get(`${first.source}/${first.subject}`)).status, 200);
      // Paging: two at a time gives the same events.
      const paged = [];
      let after = '';
      for (let i = 0; i < 4; i++) {
        const page = await app.get(`/v1/events?limit=2${after ? `&after=${after}` : ''}`);
        paged.push(...page.body.events);
        after = page.body.next;
      }
      assert.deepEqual(
        paged.map((e: { id: string }) => e.id),
        events.slice(0, 8).map((e: { id: string }) => e.id),
      );
      assert.deepEqual((await app.get(`/v1/events?after=${next}`)).body, { events: [], next });
    });

    await t.test('subscriptions narrowed by roles; fields as a lookup renders them; audited before sent', async (t) => {
      const store = await emptyStore(t, kind);
      await store.upsert('death', [death(501), death(502, { blocked: true })]);
      await store.upsert('birth', [birth(601)]);
      await store.subscriptions.add({
        client: 'dwp',
        events: ['death.registered', 'death.updated', 'birth.registered'],
        fields: ['deceased.dateOfDeath', 'deceased.causeOfDeath'],
      });
      await store.subscriptions.add({ client: 'hmrc', events: ['death.registered', 'birth.registered'], fields: [] });
      await store.subscriptions.add({ client: 'paused', events: ['death.registered'], fields: [] });
      await store.subscriptions.setPaused('paused', true);
      const app = await startApp(t, store, testConfig(PROXY));

      // death role only: no births, whatever the subscription; basic fields shown, restricted ones null; a
      // blocked record's all null.
      const dwp = await app.get('/v1/events', as('dwp', 'death'));
      assert.equal(dwp.status, 200, dwp.text);
      assert.deepEqual(
        dwp.body.events.map((e: any) => [e.type, e.subject, e.data.fields]),
        [
          ['death.registered', '501', { 'deceased.dateOfDeath': '2020-02-02', 'deceased.causeOfDeath': null }],
          ['death.registered', '502', { 'deceased.dateOfDeath': null, 'deceased.causeOfDeath': null }],
        ],
      );
      const full = await app.get('/v1/events', as('dwp', 'death,full-details'));
      assert.equal(full.body.events[0].data.fields['deceased.causeOfDeath'], 'Old age');
      // Both roles: both types, in feed order.
      const hmrc = await app.get('/v1/events', as('hmrc', 'death,birth'));
      assert.deepEqual(
        hmrc.body.events.map((e: any) => [e.type, e.subject, e.data.fields ?? null]),
        [
          ['death.registered', '501', null],
          ['death.registered', '502', null],
          ['birth.registered', '601', null],
        ],
      );
      // Verification alone reads no events of the type.
      assert.deepEqual((await app.get('/v1/events', as('hmrc', 'death-verify'))).body.events, []);
      const none = await app.get('/v1/events', as('nobody', 'death'));
      assert.equal(none.status, 403);
      assert.match(none.body.message, /nobody has no subscription/);
      assert.deepEqual((await app.get('/v1/events', as('paused', 'death'))).body, { events: [], next: '0' });

      const entries = (await trailEntries(store)).filter((e) => e.operation === 'events');
      const dwpEntries = entries.filter((e) => e.client === 'dwp');
      assert.equal(dwpEntries.length, 2);
      assert.deepEqual(
        dwpEntries.map((e) => [e.dataset, e.path, e.results]),
        [
          ['death', '/v1/events', 2],
          ['death', '/v1/events', 2],
        ],
      );
      const hmrcEntries = entries.filter((e) => e.client === 'hmrc');
      assert.deepEqual(
        hmrcEntries.map((e) => [e.dataset, e.results]),
        [
          ['death', 2],
          ['birth', 1],
        ],
      );
      // What each answer disclosed: its registrations, event ids and fields.
      assert.deepEqual(dwpEntries[0].records, [
        { type: 'death', id: 501 },
        { type: 'death', id: 502 },
      ]);
      assert.deepEqual(
        hmrcEntries.map((e) => e.records?.map((r) => r.id)),
        [[501, 502], [601]],
      );
      assert.deepEqual(dwpEntries[0].events, ['1', '2']);
      assert.deepEqual(dwpEntries[0].fields, ['deceased.dateOfDeath', 'deceased.causeOfDeath']);
      assert.deepEqual(
        hmrcEntries.map((e) => e.events),
        [['1', '2'], ['3']],
      );
      assert.equal(hmrcEntries[0].fields, undefined);
      // No entry for answers without events.
      assert.equal(entries.filter((e) => e.client === 'paused').length, 0);

      // Reading after a position acknowledges it.
      await app.get('/v1/events?after=2', as('hmrc', 'death,birth'));
      const listed = await store.subscriptions.list();
      assert.equal(listed.find((s) => s.client === 'hmrc')?.acknowledged, 2);
      // The lag metric: one series a subscription.
      const metrics = (await app.get('/metrics', {})).text;
      assert.match(metrics, /^lev_feed_lag_positions\{client="hmrc"\} 1$/m);
      assert.match(metrics, /^lev_feed_lag_positions\{client="dwp"\} 3$/m);
    });

    await t.test('wait answers as soon as an event is committed', async (t) => {
      const store = await emptyStore(t, kind);
      const app = await startApp(t, store);
      const started = Date.now();
      const answer = app.get('/v1/events?wait=10');
      await new Promise((resolve) => setTimeout(resolve, 400));
      await store.upsert('death', [death(701)]);
      const { status, body } = await answer;
      assert.equal(status, 200);
      assert.deepEqual(
        body.events.map((e: any) => e.subject),
        ['701'],
      );
      assert.ok(Date.now() - started < 2500, `answered ${Date.now() - started} ms after asking`);
      // Nothing to wait for: the empty answer after the time given.
      const waited = Date.now();
      assert.deepEqual((await app.get(`/v1/events?after=${body.next}&wait=1`)).body, { events: [], next: body.next });
      assert.ok(Date.now() - waited >= 900);
    });

    await t.test(
      'retention: a position older than the events kept is 410 CursorExpired; since starts from a date',
      async (t) => {
        const store = await emptyStore(t, kind);
        await store.upsert('death', [death(801), death(802)]);
        const app = await startApp(t, store);
        assert.equal((await app.get('/v1/events?since=2000-01-01')).body.events.length, 2);
        assert.equal(
          (await app.get(`/v1/events?since=${new Date(Date.now() + 60_000).toISOString()}`)).body.events.length,
          0,
        );
        // A leap second is a real time: it reads as the start of the next second.
        assert.equal((await app.get('/v1/events?since=2016-12-31T23:59:60Z')).body.events.length, 2);
        // The first and last instants of the years 0001 to 9999 are times like any other; past them (a
        // leap second, an offset) is refused on both stores alike, where the memory store read
        // '+010000-...' as text, before every event, and PostgreSQL after every one.
        assert.equal((await app.get('/v1/events?since=0001-01-01T00:00:00Z')).body.events.length, 2);
        assert.deepEqual((await app.get('/v1/events?since=9999-12-31T23:59:59Z')).body.events, []);
        for (const since of [
          '9999-12-31T23:59:60Z',
          '9999-12-31T23:59:59-23:59',
          '9999-12-31T23:30:00-00:30',
          '0001-01-01T00:00:00+00:01',
        ]) {
          const refused = await app.get(`/v1/events?since=${encodeURIComponent(since)}`);
          assert.equal(refused.status, 400, `${since}: ${refused.text}`);
          assert.equal(refused.body.code, 'BadRequest');
          assert.match(refused.body.message, /'since'.*from 0001-01-01 to 9999-12-31T23:59:59Z/, since);
        }
        await store.events.prune(new Date(Date.now() + 1000));
        await store.upsert('death', [death(803)]);
        const expired = await app.get('/v1/events?after=1');
        assert.equal(expired.status, 410);
        assert.equal(expired.body.code, 'CursorExpired');
        assert.match(expired.body.message, /since/);
        // A position the feed never gave: it was started again.
        const restarted = await app.get('/v1/events?after=99');
        assert.equal(restarted.status, 410);
        assert.match(restarted.body.message, /not in this feed, which ends at 3/);
        // At the last expired position nothing was missed.
        assert.deepEqual(
          (await app.get('/v1/events?after=2')).body.events.map((e: any) => e.subject),
          ['803'],
        );
        assert.deepEqual(
          (await app.get('/v1/events')).body.events.map((e: any) => e.subject),
          ['803'],
        );
      },
    );

    await t.test('bad input: a 400 naming each parameter', async (t) => {
      const store = await emptyStore(t, kind);
      await store.upsert('death', [death(901)]);
      const app = await startApp(t, store);
      const cases: [string, RegExp][] = [
        ['after=abc', /'after'/],
        ['after=-1', /'after'/],
        ['after=1234567890123456', /'after'/],
        ['limit=0', /'limit'/],
        ['limit=1001', /'limit'/],
        ['limit=ten', /'limit'/],
        ['wait=31', /'wait'/],
        ['wait=-1', /'wait'/],
        ['since=yesterday', /'since'/],
        ['since=2026-02-30', /'since'/],
        ['since=2026-11-01T25:00:00Z', /'since'/],
        ['since=2026-11-01T09:00:00', /'since'/],
        ['after=1&since=2026-01-01', /'after' or 'since'/],
        ['cursor=1', /cursor/],
        ['limit=1&limit=2', /'limit'/],
      ];
      for (const [query, message] of cases) {
        const answer = await app.get(`/v1/events?${query}`);
        assert.equal(answer.status, 400, `${query}: ${answer.text}`);
        assert.equal(answer.body.code, 'BadRequest');
        assert.match(answer.body.message, message, query);
      }
      assert.equal((await app.get('/v1/events', {})).status, 401);
      assert.equal((await app.get('/v1/events', { ...CALLER })).status, 200);
    });
  });
}
