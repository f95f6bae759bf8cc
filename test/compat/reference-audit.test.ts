/**
 * The audit report as the existing service gave it, on every store kind: its
 * `user` filter matching a substring as the existing service did, except that
 * `%` and `_` are taken literally (its PostgreSQL path matched with LIKE, where
 * they were wildcards), and a fresh mock's report read as lev-web reads it.
 *
 * Skipped when the reference folder is absent, except under CI=true (reference-folder.ts).
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { CALLER, filledStore, startApp, storeKinds, testConfig } from '../helper.ts';
import { openBackend } from '../../src/backend/open.ts';
import { referenceMissing } from './reference-folder.ts';
import { builtInServiceTypes } from '../record-types.ts';
import { BIRTH_V1, type JsonObject, MOCK_DATA, getOk } from './reference-output.ts';

const skip = referenceMissing(MOCK_DATA);

// ---------------------------------------------------------------------------
// The audit report's user filter (FIELDS.md 6.3)
// ---------------------------------------------------------------------------

/** The existing service's PostgreSQL filter, `username LIKE '%<user>%'`, as a predicate. */
function referenceUserFilter(user: string): (username: string) => boolean {
  const like = user
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  const pattern = new RegExp(`^.*${like}.*$`, 's');
  return (username) => pattern.test(username);
}

test('the audit report filters users by a substring, as the existing service does', {
  skip,
}, async (t: TestContext) => {
  // The reference mock's audit users, and a department's, as lev-web's hint has caseworkers filter them.
  const users = [
    'lev-e2e-tests',
    'foo',
    'bar',
    'ann@hmrc.gov.uk',
    'bob@hmrc.gov.uk',
    'cy@dwp.gov.uk',
    'x%y',
    'x_y',
    'xay',
  ];
  for (const kind of await storeKinds()) {
    await t.test(`${kind} store`, async (t) => {
      const app = await startApp(t, await filledStore(t, kind, MOCK_DATA));
      for (const user of users) await getOk(app, `${BIRTH_V1}/123456789`, { ...CALLER, 'x-auth-username': user });
      const auditor = { ...CALLER, 'x-auth-username': 'auditor', 'x-auth-roles': 'audit' };
      const reported = async (user: string) =>
        Object.keys(
          (await getOk(app, `/api/v0/audit/user-activity?${new URLSearchParams({ user })}`, auditor)) as JsonObject,
        ).sort();

      // Without % or _, the same users as the existing service.
      for (const user of ['@hmrc.gov.uk', 'o', 'foo', 'e2e', '.gov.uk', 'HMRC', 'nobody']) {
        assert.deepEqual(await reported(user), users.filter(referenceUserFilter(user)).sort(), `user=${user}`);
      }
      // Deliberately, % and _ are plain characters, not the LIKE wildcards they were there.
      assert.deepEqual(await reported('x_y'), ['x_y']);
      assert.deepEqual(users.filter(referenceUserFilter('x_y')).sort(), ['x%y', 'x_y', 'xay']);
      assert.deepEqual(await reported('%'), ['x%y']);
    });
  }
});

test('lev-web reads the audit report of a fresh mock with an empty X-Auth-Roles, and finds a history in it', {
  skip,
}, async (t: TestContext) => {
  // The existing service made no identity check on the report (FIELDS.md 6.3), and its mock had audit rows;
  // lev-web sends a username and an audience and no roles. Here too the mock's report is open, and not empty.
  const store = await openBackend(testConfig(), builtInServiceTypes);
  const app = await startApp(t, store);
  t.after(() => store.close());
  const levWeb = { 'x-auth-username': 'caseworker@example.gov.uk', 'x-auth-aud': 'lev-web', 'x-auth-roles': '' };
  const from = new Date(Date.now() - 28 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date().toISOString().slice(0, 10);
  const report = (await getOk(app, `/api/v0/audit/user-activity?from=${from}&to=${to}`, levWeb)) as Record<
    string,
    Record<string, number>
  >;
  assert.ok(Object.keys(report).length >= 3, 'several users in the history');
  for (const days of Object.values(report)) {
    for (const [day, count] of Object.entries(days)) {
      assert.match(day, /^\d{4}-\d{2}-\d{2}$/);
      assert.ok(Number.isInteger(count) && count > 0);
    }
  }
});
