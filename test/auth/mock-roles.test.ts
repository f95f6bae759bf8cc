/**
 * AUTH_MODE=mock and roles: without MOCK_ENFORCE_ROLES every dataset and the
 * audit report are open to any identified caller (lev-web sends an empty
 * X-Auth-Roles); with it, the production rules apply to the headers' roles.
 * Over HTTP (app.inject), one rule for datasets and the audit report alike.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { type TestStore, filledStore, suiteContext, testConfig } from '../helper.ts';

const context = suiteContext();
let store: TestStore;
before(async () => {
  store = await filledStore(context, 'memory');
});

const DATASETS = ['birth', 'death', 'marriage', 'partnership'];
const REPORT = '/api/v0/audit/user-activity';
const ENTRIES = '/api/v0/audit/entries?user=test-user';
const caller = (roles: string) => ({
  'x-auth-username': 'test-user',
  'x-auth-aud': 'test-client',
  'x-auth-roles': roles,
});

async function mockApp(t: { after: (fn: () => unknown) => void }, env: Record<string, string> = {}) {
  const app = await buildApp(testConfig(env), { backend: store, descriptions: store.descriptions });
  t.after(() => app.close());
  const get = (url: string, roles?: string) => app.inject({ url, headers: roles === undefined ? {} : caller(roles) });
  return get;
}

describe('mock mode without MOCK_ENFORCE_ROLES', () => {
  test('every dataset and the audit report are open to a caller with no roles', async (t) => {
    const get = await mockApp(t);
    for (const dataset of DATASETS)
      assert.equal((await get(`/v1/registration/${dataset}/123456789`, '')).statusCode, 200, dataset);
    const report = await get(REPORT, '');
    assert.equal(report.statusCode, 200, report.body);
    assert.equal(report.json()['test-user'] !== undefined, true, "the caller's own reads are counted");
    const entries = await get(ENTRIES, '');
    assert.equal(entries.statusCode, 200, entries.body);
    assert.ok(entries.json().length >= DATASETS.length, 'and listed in the drill-down');
  });

  test('the audit report still needs an identified caller, and checks its query', async (t) => {
    const get = await mockApp(t);
    assert.equal((await get(REPORT)).statusCode, 401, 'no identity headers');
    assert.equal((await get(`${REPORT}?from=2020-13-01`, '')).statusCode, 400);
    assert.equal((await get(ENTRIES)).statusCode, 401, 'no identity headers');
    assert.equal((await get(`${ENTRIES}&from=2020-13-01`, '')).statusCode, 400);
  });
});

describe('mock mode with MOCK_ENFORCE_ROLES=true', () => {
  test('each dataset needs its role, before anything is read', async (t) => {
    const get = await mockApp(t, { MOCK_ENFORCE_ROLES: 'true' });
    for (const dataset of DATASETS) {
      const refused = await get(`/v1/registration/${dataset}/123456789`, 'full-details,audit');
      assert.equal(refused.statusCode, 403, dataset);
      assert.deepEqual(refused.json(), {
        code: 'Forbidden',
        message: `The ${dataset} records need the '${dataset}' role`,
      });
      assert.equal((await get(`/v1/registration/${dataset}/123456789`, dataset)).statusCode, 200, dataset);
    }
    assert.equal((await get('/v1/registration/birth?surname=', 'death')).statusCode, 403, 'the role before the query');
  });

  test("the audit report and its drill-down need the 'audit' role", async (t) => {
    const get = await mockApp(t, { MOCK_ENFORCE_ROLES: 'true' });
    for (const path of [REPORT, ENTRIES]) {
      const refused = await get(path, 'birth,death,marriage,partnership,full-details');
      assert.equal(refused.statusCode, 403, path);
      assert.deepEqual(refused.json(), { code: 'Forbidden', message: "The audit report needs the 'audit' role" });
      assert.equal((await get(path, 'audit')).statusCode, 200, path);
      assert.equal((await get(path)).statusCode, 401, path);
    }
  });
});
