import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { verifyAuditChain } from '../../src/audit/verify.ts';
import type { AuditTrail } from '../../src/model/audit.ts';
import {
  CALLER,
  type StoreKind,
  type TestStore,
  filledStore,
  startApp,
  storeKinds,
  testConfig,
  trailEntries,
  verifyTrail,
} from '../helper.ts';

/** The store as a PostgreSQL one, for what only its audit table does. */
const postgres = (store: TestStore) => {
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  return store;
};
const count = async (store: TestStore) =>
  Number((await postgres(store).driver.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log'))[0].n);
const onPostgres = (kind: StoreKind) => (kind === 'postgres' ? false : "the audit table is PostgreSQL's");

for (const kind of await storeKinds()) {
  describe(`audit trail on the ${kind} store`, () => {
    test('one entry per data response, none for refused requests, chain intact', async (t) => {
      const store = await filledStore(t, kind);
      const app = await startApp(t, store);
      const caller = { ...CALLER, 'x-auth-groups': '/team a,/team b' };
      const responses = await Promise.all([
        app.get('/v1/registration/birth/123456789', caller),
        app.get('/api/v0/events/birth/123456789', caller),
        app.get('/v1/registration/death/123456789', caller),
        ...Array.from({ length: 40 }, (_, i) =>
          app.get(`/v1/registration/marriage?surname=x${i}&forenames=y&dateOfMarriage=2001-01-01`, caller),
        ),
        app.get('/v1/registration/birth/1', caller), // 404
        app.get('/v1/registration/birth/abc', caller), // 400
        app.get('/v1/registration/birth/123456789', {}), // 401
      ]);
      const ok = responses.filter((r) => r.status === 200).length;
      assert.equal(ok, 43);
      const entries = await trailEntries(store);
      assert.equal(entries.length, ok);
      const { at, hash, requestId, id, writer, seq, records, ...entry } = entries.find(
        (e) => e.path === '/api/v0/events/birth/123456789',
      ) as (typeof entries)[number] & {
        id?: string;
        writer?: string;
        seq?: number;
      };
      assert.deepEqual(records, [{ type: 'birth', id: 123456789 }]);
      assert.deepEqual(
        { ...entry, results: Number(entry.results) },
        {
          username: 'test-user',
          client: 'test-client',
          groups: ['/team a', '/team b'],
          dataset: 'birth',
          operation: 'lookup',
          path: '/api/v0/events/birth/123456789',
          query: '',
          results: 1,
        },
      );
      const search = entries.find((e) => e.query.startsWith('surname=x7&'))!;
      assert.deepEqual(
        { query: search.query, results: Number(search.results) },
        { query: 'surname=x7&forenames=y&dateOfMarriage=2001-01-01', results: 0 },
      );
      assert.deepEqual(await verifyTrail(store), { ok: true, entries: ok });
    });

    test('the table refuses UPDATE, DELETE and TRUNCATE', { skip: onPostgres(kind) }, async (t) => {
      const store = postgres(await filledStore(t, kind));
      const app = await startApp(t, store);
      await app.get('/v1/registration/birth/123456789');
      for (const sql of ['UPDATE audit_log SET results = 9', 'DELETE FROM audit_log', 'TRUNCATE audit_log']) {
        await assert.rejects(store.driver.query(sql), /append-only/);
      }
      assert.equal(await count(store), 1);
    });

    test('an altered or removed entry is detected', { skip: onPostgres(kind) }, async (t) => {
      const store = postgres(await filledStore(t, kind));
      const app = await startApp(t, store);
      for (let i = 0; i < 5; i++) await app.get('/v1/registration/birth/123456789');
      // Only someone able to disable the table's triggers can tamper; the chain still shows it.
      await store.driver.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
      await store.driver.query(
        "UPDATE audit_log SET username = 'someone-else' WHERE id = (SELECT min(id) + 2 FROM audit_log)",
      );
      const altered = await verifyAuditChain(store.driver);
      assert.equal(altered.ok, false);
      assert.equal(altered.ok === false && altered.entries, 3);
      await store.driver.query("UPDATE audit_log SET username = 'test-user'");
      assert.equal((await verifyAuditChain(store.driver)).ok, true);
      await store.driver.query('DELETE FROM audit_log WHERE id = (SELECT min(id) + 1 FROM audit_log)');
      const removed = await verifyAuditChain(store.driver);
      assert.equal(removed.ok === false && removed.entries, 2);
    });

    test('when the audit write fails the caller gets 503 and no data', async (t) => {
      const store = await filledStore(t, kind);
      const failing: AuditTrail = { record: async () => Promise.reject(new Error('disk full')), flush: async () => {} };
      const { buildApp } = await import('../../src/app.ts');
      const { testConfig } = await import('../helper.ts');
      const app = await buildApp(testConfig(), {
        backend: { ...store, audit: failing },
        descriptions: store.descriptions,
      });
      t.after(() => app.close());
      const response = await app.inject({ url: '/v1/registration/birth/123456789', headers: CALLER });
      assert.equal(response.statusCode, 503);
      assert.deepEqual(Object.keys(response.json()).sort(), ['code', 'message']);
      assert.equal(response.json().code, 'ServiceUnavailable');
      assert.doesNotMatch(response.body, /SMITH|Smith|2008/);
    });

    test('user-activity report needs the audit role and counts per user per day', async (t) => {
      const store = await filledStore(t, kind);
      const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      await app.get('/v1/registration/birth/123456789', {
        ...CALLER,
        'x-auth-roles': 'birth,death',
        'x-auth-username': 'ann',
        'x-auth-groups': 'g1',
      });
      await app.get('/v1/registration/death/123456789', {
        ...CALLER,
        'x-auth-roles': 'birth,death',
        'x-auth-username': 'ann',
        'x-auth-groups': 'g1',
      });
      await app.get('/v1/registration/death/123456789', {
        ...CALLER,
        'x-auth-roles': 'birth,death',
        'x-auth-username': 'bob',
      });
      const auditor = { ...CALLER, 'x-auth-roles': 'audit' };
      assert.equal((await app.get('/api/v0/audit/user-activity', CALLER)).status, 403);
      assert.equal((await app.get('/api/v0/audit/user-activity', {})).status, 401);
      assert.equal((await app.get('/api/v0/audit/user-activity?from=2020-13-01', auditor)).status, 400);
      const today = new Date().toISOString().slice(0, 10);
      assert.deepEqual((await app.get('/api/v0/audit/user-activity', auditor)).body, {
        ann: { [today]: 2 },
        bob: { [today]: 1 },
      });
      assert.deepEqual((await app.get('/api/v0/audit/user-activity?group=g1&dataset=death', auditor)).body, {
        ann: { [today]: 1 },
      });
      assert.deepEqual((await app.get('/api/v0/audit/user-activity?to=2000-01-01', auditor)).body, {});
    });
  });
}
