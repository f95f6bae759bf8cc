/**
 * Who saw a registration, on both stores: every access that disclosed or decided on it (lookups,
 * searches and suggestions that returned it, verifications that compared it, feed reads that named it) and none
 * other, newest first; reading
 * the trail is itself an access (audit-read); the checkpoints are listed signed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkpointFault, checkpointSigner, newSigningKey } from '../../src/audit/checkpoint.ts';
import { takeCheckpoint } from '../../src/audit/checkpoint-writer.ts';
import type { Checkpoint } from '../../src/model/audit.ts';
import { CALLER, filledStore, startApp, storeKinds, testConfig, trailEntries, verifyTrail } from '../helper.ts';

const RECORD = '/api/v0/audit/records';
const ASHWORTH = 'surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08';
const as = (username: string, roles = 'birth,death') => ({
  ...CALLER,
  'x-auth-username': username,
  'x-auth-roles': roles,
});
const AUDITOR = as('auditor', 'audit');

for (const kind of await storeKinds()) {
  describe(`who saw a record, on the ${kind} store`, () => {
    test(
      'lists exactly the accesses that disclosed or decided on it, newest first, with time, user, client ' +
        'and operation',
      async (t) => {
        const store = await filledStore(t, kind);
        const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
        const ok = async (path: string, headers: Record<string, string>) =>
          assert.equal((await app.get(path, headers)).status, 200, path);
        await ok('/v1/registration/birth/123456789', as('looked'));
        await ok(`/v1/registration/birth?${ASHWORTH}`, as('searched'));
        await ok(`/v1/verification/birth?${ASHWORTH}`, as('verified'));
        // A close match: Eleanor's surname misspelt.
        await ok(
          '/v1/suggestions/birth?surname=Ashwort&forenames=Eleanor&dateOfBirth=2008-08-08',
          as('suggested', 'birth,suggest'),
        );
        // The mock subscribes every caller to every event: the feed names every record it holds.
        await ok('/v1/events?limit=1000', as('fed'));
        // Accesses that did not disclose it: another record, a search that did not return it, another type.
        await ok('/v1/registration/death/123456789', as('other-type'));
        await ok('/v1/registration/birth?surname=Carrow&forenames=Felix&dateOfBirth=2005-11-02', as('other-search'));
        await ok('/api/v0/events/birth/123456789', as('v0'));

        const response = await app.get(`${RECORD}/birth/123456789`, AUDITOR);
        assert.equal(response.status, 200, response.text);
        assert.deepEqual(
          response.body.map((e: { username: string; operation: string; client: string; records: unknown[] }) => [
            e.username,
            e.operation,
            e.client,
          ]),
          [
            ['v0', 'lookup', 'test-client'],
            ['fed', 'events', 'test-client'],
            ['suggested', 'suggest', 'test-client'],
            ['verified', 'verify', 'test-client'],
            ['searched', 'search', 'test-client'],
            ['looked', 'lookup', 'test-client'],
          ],
        );
        for (const e of response.body) {
          assert.ok(
            e.records.some((r: { type: string; id: number }) => r.type === 'birth' && r.id === 123456789),
            'each names the record',
          );
          assert.match(e.at, /^\d{4}-\d\d-\d\dT/);
        }
        const ats = response.body.map((e: { at: string }) => e.at);
        assert.deepEqual([...ats].sort().reverse(), ats, 'newest first');
        // Leading zeros name the same registration; days and limits narrow the list.
        assert.equal((await app.get(`${RECORD}/birth/0123456789`, AUDITOR)).body.length, 6);
        assert.deepEqual((await app.get(`${RECORD}/birth/123456789?to=2000-01-01`, AUDITOR)).body, []);
        const limited = await app.get(`${RECORD}/birth/123456789?limit=1`, AUDITOR);
        assert.deepEqual([limited.body.length, limited.headers.get('x-results-truncated')], [1, 'true']);
        assert.deepEqual(
          (await app.get(`${RECORD}/death/123456789`, AUDITOR)).body.map((e: { username: string }) => e.username),
          ['other-type', 'fed'],
        );
        assert.deepEqual((await app.get(`${RECORD}/birth/1`, AUDITOR)).body, []);
      },
    );

    test('needs the audit role, and refuses a type or id it does not know with a 400 naming it', async (t) => {
      const app = await startApp(t, await filledStore(t, kind), testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      assert.equal((await app.get(`${RECORD}/birth/1`, as('caseworker'))).status, 403);
      assert.equal((await app.get(`${RECORD}/birth/1`, {})).status, 401);
      for (const [path, name] of [
        [`${RECORD}/dog/1`, 'type'],
        [`${RECORD}/birth/x1`, 'id'],
        [`${RECORD}/birth/1?from=2026-02-30`, 'from'],
        [`${RECORD}/birth/1?limit=0`, 'limit'],
        [`${RECORD}/birth/1?user=ann`, 'user'],
      ]) {
        const response = await app.get(path, AUDITOR);
        assert.equal(response.status, 400, `${path}: ${response.text}`);
        assert.deepEqual(Object.keys(response.body).sort(), ['code', 'message']);
        assert.match(response.body.message, new RegExp(`'${name}'`), path);
      }
    });

    test('reading the trail is itself recorded, as audit-read, before the answer', async (t) => {
      const app = await startApp(t, await filledStore(t, kind), testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const today = new Date().toISOString().slice(0, 10);
      const reads = [
        '/api/v0/audit/user-activity',
        '/api/v0/audit/entries?user=x',
        `${RECORD}/birth/1`,
        '/api/v0/audit/checkpoints',
      ];
      for (const path of reads) assert.equal((await app.get(path, AUDITOR)).status, 200, path);
      const report = await app.get('/api/v0/audit/user-activity?operation=audit-read', AUDITOR);
      assert.deepEqual(report.body, { auditor: { [today]: reads.length } }, 'every reading before this one');
      const entries = await app.get('/api/v0/audit/entries?user=auditor&operation=audit-read', AUDITOR);
      assert.deepEqual(
        entries.body.map(
          (e: { path: string; query: string; dataset: string }) =>
            `${e.dataset} ${e.path}${e.query ? `?${e.query}` : ''}`,
        ),
        ['audit /api/v0/audit/user-activity?operation=audit-read', ...reads.map((path) => `audit ${path}`).reverse()],
      );
      // The report counts accesses to registrations: the trail's own readings only when asked for.
      assert.deepEqual(
        (await app.get('/api/v0/audit/user-activity', AUDITOR)).body,
        {},
        'no reading counted without operation=audit-read',
      );
      assert.deepEqual((await app.get('/api/v0/audit/entries?user=auditor', AUDITOR)).body, []);
      assert.equal((await app.get('/api/v0/audit/user-activity', as('nosy'))).status, 403);
      assert.equal(
        (await app.get('/api/v0/audit/entries?user=nosy', AUDITOR)).body.length,
        0,
        'a refused reading disclosed nothing and is not recorded',
      );
    });

    test('the checkpoints are listed newest first, each signed over what it states', async (t) => {
      const store = await filledStore(t, kind);
      const app = await startApp(t, store);
      await app.get('/v1/registration/birth/123456789');
      const signer = checkpointSigner(newSigningKey());
      const take = async () => {
        await store.audit.flush();
        if (store.kind === 'memory') return store.trail.checkpoint(signer) as Checkpoint;
        return (await takeCheckpoint(store.driver, signer)) as Checkpoint;
      };
      const first = await take();
      await app.get('/v1/registration/birth/123456789');
      const second = await take();
      const listed = await app.get('/api/v0/audit/checkpoints', CALLER);
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(listed.body, [second, first]);
      assert.equal(second.previous, first.hash);
      assert.equal(second.entries, first.entries + 1, 'the lookup between them');
      for (const checkpoint of listed.body) assert.equal(checkpointFault(checkpoint), undefined);
      assert.deepEqual((await app.get('/api/v0/audit/checkpoints?limit=1', CALLER)).body, [second]);
    });
  });
}

test(
  'an access that found nothing keeps an empty list of records, as the store writes one, and readings of ' +
    'the trail none',
  async (t) => {
    for (const kind of await storeKinds()) {
      const store = await filledStore(t, kind);
      const app = await startApp(t, store);
      assert.equal(
        (await app.get('/v1/verification/birth?surname=Nobody&forenames=Noone&dateOfBirth=2001-01-01')).status,
        200,
      );
      assert.equal(
        (await app.get('/v1/registration/birth?surname=Nobody&forenames=Noone&dateOfBirth=2001-01-01')).status,
        200,
      );
      assert.equal((await app.get('/api/v0/audit/user-activity')).status, 200);
      const entries = await trailEntries(store);
      assert.deepEqual(
        entries.map((e) => [e.operation, e.records]),
        [
          ['verify', []],
          ['search', []],
          ['audit-read', undefined],
        ],
        kind,
      );
      assert.deepEqual(await verifyTrail(store), { ok: true, entries: 3 }, kind);
    }
  },
);
