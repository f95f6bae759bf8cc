/**
 * Every verification answered is in the audit trail before its answer, with
 * operation `verify` and its outcome in `results` (1 verified, 0 not); bad
 * input (400) and refused callers (403) are not. The user-activity report
 * filters on the operation. On every store kind: the embedded one and
 * PostgreSQL where a server answers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { CALLER, filledStore, postgresAvailable, storeKinds, testConfig, trailEntries } from '../helper.ts';

const ASHWORTH = 'surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08';
const REQUESTS: Array<[string, number]> = [
  [`/v1/verification/birth?${ASHWORTH}`, 200],
  [`/v1/verification/birth?${ASHWORTH}&systemNumber=123456780`, 200],
  ['/v1/verification/birth?surname=Carrow&forenames=Felix&dateOfBirth=2005-11-02', 200],
  [
    '/v1/verification/marriage?partner1Surname=Kingsley&partner1Forenames=Sophie&partner2Surname=Merridew' +
      '&partner2Forenames=Daniel&dateOfMarriage=2008-08-08',
    200,
  ],
  ['/v1/verification/death?surname=Nobody&forenames=Known&dateOfDeath=2001-01-01', 200],
  ['/v1/verification/birth?surname=Ashworth&forenames=Eleanor', 400],
  [`/v1/verification/birth?${ASHWORTH}&shoeSize=9`, 400],
];

for (const kind of await storeKinds()) {
  test(`audit rows equal verifications answered, with their outcome (${kind})`, async (t) => {
    const store = await filledStore(t, kind);
    const app = await buildApp(testConfig(), { backend: store, descriptions: store.descriptions });
    t.after(() => app.close());
    const answered = new Map<string, { dataset: string; results: number; path: string }>();
    for (let round = 0; round < 3; round++) {
      // At once, so that entries are written in batches, as under load.
      await Promise.all(
        REQUESTS.map(async ([url, status]) => {
          const response = await app.inject({ url, headers: { ...CALLER, 'x-auth-groups': '/verifiers' } });
          assert.equal(response.statusCode, status, `${url}: ${response.body}`);
          if (status !== 200) return;
          answered.set(response.headers['x-request-id'] as string, {
            dataset: url.split('/')[3].split('?')[0],
            results: response.json().verified ? 1 : 0,
            path: url.split('?')[0],
          });
        }),
      );
    }
    const entries = await trailEntries(store);
    assert.equal(entries.length, answered.size, 'one entry per verification answered, none for bad input');
    for (const entry of entries) {
      const expected = answered.get(entry.requestId);
      assert.ok(expected, `entry ${entry.requestId} is of an answered request`);
      assert.equal(entry.operation, 'verify');
      assert.equal(entry.dataset, expected.dataset);
      assert.equal(entry.results, expected.results, `${entry.requestId}: the outcome`);
      assert.equal(entry.path, expected.path);
      assert.equal(entry.client, CALLER['x-auth-aud']);
      assert.deepEqual(entry.groups, ['/verifiers']);
    }
    assert.deepEqual(
      [...answered.values()].map((a) => a.results).sort(),
      [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
    );

    const report = async (filter: string) =>
      (
        await app.inject({
          url: `/api/v0/audit/user-activity?${filter}`,
          headers: { ...CALLER, 'x-auth-roles': 'audit' },
        })
      ).json();
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(await report('operation=verify'), { [CALLER['x-auth-username']]: { [today]: answered.size } });
    assert.deepEqual(await report('operation=search'), {});
    assert.deepEqual(await report('operation=verify&dataset=marriage'), {
      [CALLER['x-auth-username']]: { [today]: 3 },
    });
  });
}

test('the audit table still refuses an operation that is not lookup, search or verify', {
  skip: !(await postgresAvailable()) && 'no PostgreSQL server',
}, async (t) => {
  const store = await filledStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a PostgreSQL store');
  const insert = (operation: string) =>
    store.driver.query(
      `INSERT INTO audit_log (username, client, groups, dataset, operation, path, query, results, ` +
        `request_id, hash, writer, seq) VALUES ('u', 'c', '{}', 'birth', $1, '/', '', 0, 'r', 'h', 'w', $2)`,
      [operation, operation.length],
    );
  await insert('verify');
  await assert.rejects(insert('delete'), /check constraint/);
});
