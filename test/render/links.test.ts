/**
 * Linked registrations over HTTP, on the built-in mock: a key with no link is
 * left out (as the existing service does), and a chain stops at a blocked
 * registration, whose links are hidden with the rest of it, while the
 * registrations beyond it are still found by their own lookups and searches.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mockRecords } from '../../src/mock/dataset.ts';
import { CALLER, FULL_DETAILS, sharedApp } from '../helper.ts';
import { builtInScenarios, builtInTypes } from '../record-types.ts';

type Json = Record<string, any>;
const app = sharedApp();
const LINKS = ['previousRegistration', 'nextRegistration'];
const linkKeys = (record: Json) => LINKS.filter((key) => key in record);

const BIRTH = '/v1/registration/birth';
// The built-in chain of three births, the middle one blocked.
const FIRST = 999999050;
const BLOCKED = 999999051;
const LAST = 999999052;

async function lookup(path: string, headers: Record<string, string> = FULL_DETAILS): Promise<Json> {
  const response = await app().get(path, headers);
  assert.equal(response.status, 200, `${path}: ${response.text}`);
  return response.body;
}

describe('linked registrations', () => {
  test('a record without links leaves both keys out, blocked or not', async () => {
    let withoutLinks = 0;
    for (const [type, records] of Object.entries(mockRecords(builtInTypes, builtInScenarios)) as Array<
      [string, Json[]]
    >) {
      for (const stored of records) {
        if (stored.previousRegistration || stored.nextRegistration) continue;
        withoutLinks++;
        for (const headers of [FULL_DETAILS, CALLER]) {
          const body = await lookup(`/v1/registration/${type}/${stored.id}`, headers);
          assert.deepEqual(linkKeys(body), [], `${type} ${stored.id}`);
        }
      }
    }
    assert.ok(withoutLinks > 4, 'the mock has records without links of every type');
    const blocked = await lookup(`${BIRTH}/999999020`);
    assert.equal(blocked.status.blocked, true);
    assert.doesNotMatch(JSON.stringify(blocked), /Registration/);
  });

  test('a chain stops at a blocked registration: its links are left out wherever it is shown', async () => {
    const stored = Object.fromEntries(
      (mockRecords(builtInTypes, builtInScenarios).birth as Json[]).map((record) => [record.id, record]),
    );
    // The stored chain runs through the blocked record in both directions.
    assert.equal(stored[FIRST].nextRegistration.nextRegistration.id, LAST);
    assert.equal(stored[LAST].previousRegistration.previousRegistration.id, FIRST);

    for (const headers of [FULL_DETAILS, CALLER]) {
      const first = await lookup(`${BIRTH}/${FIRST}`, headers);
      assert.equal(first.nextRegistration.id, BLOCKED);
      assert.equal(first.nextRegistration.status.blocked, true);
      assert.deepEqual(linkKeys(first.nextRegistration), [], 'the embedded blocked record hides its own links');

      const last = await lookup(`${BIRTH}/${LAST}`, headers);
      assert.equal(last.previousRegistration.id, BLOCKED);
      assert.deepEqual(linkKeys(last.previousRegistration), []);

      const blocked = await lookup(`${BIRTH}/${BLOCKED}`, headers);
      assert.deepEqual(linkKeys(blocked), [], 'the blocked record looked up hides its links');
      assert.doesNotMatch(JSON.stringify(blocked), new RegExp(`${FIRST}|${LAST}`));
    }
  });

  test(
    'the registrations beyond a blocked one are found by ' + 'their own lookups and searches, each shown in full',
    async () => {
      const last = await lookup(`${BIRTH}/${LAST}`);
      assert.equal(last.status.blocked, false);
      assert.equal(typeof last.child.surname, 'string');
      const found = await lookup(
        `${BIRTH}?surname=${encodeURIComponent(last.child.surname)}&forenames=` +
          `${encodeURIComponent(last.child.forenames)}&dateOfBirth=${last.child.dateOfBirth}`,
      );
      assert.ok(Array.isArray(found));
      const ids = (found as unknown as Json[]).map((record) => record.id);
      assert.ok(ids.includes(LAST), `the last registration is found by its own names: ${ids}`);
      for (const record of found as unknown as Json[])
        assert.deepEqual(record, await lookup(`${BIRTH}/${record.id}`), `${record.id} as its lookup shows it`);
    },
  );
});
