/**
 * Compatibility with the existing service, checked against its own mock
 * records (the read-only reference folder beside the repository): v0 and v1
 * lookups and the searches its documentation lists, on every store kind. The
 * expectations model how the existing service serves those records
 * (reference-output.ts), except where this service differs on purpose:
 *
 * - a blocked record's previousRegistration/nextRegistration are left out
 *   (the existing service showed them; a record with no links leaves them out in both);
 * - `status.blocked` (v1) is always a boolean;
 * - searches are deduplicated and in ascending id order;
 * - v0 `forename2` is honoured.
 *
 * Skipped when the reference folder is absent, except under CI=true (reference-folder.ts).
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { CALLER, FULL_DETAILS, filledStore, startApp, storeKinds } from '../helper.ts';
import { referenceMissing } from './reference-folder.ts';
import {
  BIRTH_V1,
  type JsonObject,
  MOCK_DATA,
  V0_RULES,
  V1_RULES,
  assertSameAsReference,
  getOk,
  referenceOutput,
  rows,
} from './reference-output.ts';

const skip = referenceMissing(MOCK_DATA);

// ---------------------------------------------------------------------------
// Searches the reference documents (FIELDS.md sections 4 and 7)
// ---------------------------------------------------------------------------

interface Search {
  readonly what: string;
  readonly path: string;
  readonly query: Record<string, string>;
  readonly ids: readonly number[];
}

const search = (what: string, path: string, query: Record<string, string>, ids: readonly number[]): Search => ({
  what,
  path,
  query,
  ids,
});
const BIRTH_V0 = '/api/v0/events/birth';
const DEATH = '/v1/registration/death';
const MARRIAGE = '/v1/registration/marriage';
const PARTNERSHIP = '/v1/registration/partnership';
const MULTIPLE = [999999901, 999999902, 999999903];

const SEARCHES: readonly Search[] = [
  // Births
  search(
    'multiple births (v1)',
    BIRTH_V1,
    { surname: 'Multiple', forenames: 'Tester', dateOfBirth: '2010-01-01' },
    MULTIPLE,
  ),
  search(
    'multiple births (v0)',
    BIRTH_V0,
    { lastname: 'Multiple', forenames: 'Tester', dateofbirth: '2010-01-01' },
    MULTIPLE,
  ),
  search(
    'multiple births (v0, forename1)',
    BIRTH_V0,
    { lastname: 'Multiple', forename1: 'Tester', dateofbirth: '2010-01-01' },
    MULTIPLE,
  ),
  search(
    'one of the multiple births (v0, forename1 + forename2)',
    BIRTH_V0,
    { lastname: 'multiple', forename1: 'tester', forename2: 'two', dateofbirth: '2010-01-01' },
    [999999902],
  ),
  search(
    'one of the multiple births by full forenames',
    BIRTH_V1,
    { surname: 'MULTIPLE', forenames: 'tester-one', dateOfBirth: '2010-01-01' },
    [999999901],
  ),
  search(
    'solo leap day (v1)',
    BIRTH_V1,
    { surname: 'Solo', forenames: 'Tester', dateOfBirth: '2012-02-29' },
    [999999910],
  ),
  search(
    'solo leap day (v0)',
    BIRTH_V0,
    { lastname: 'Solo', forenames: 'Tester', dateofbirth: '2012-02-29' },
    [999999910],
  ),
  search(
    'fully populated birth by its first two forenames',
    BIRTH_V1,
    { surname: 'smith', forenames: 'Joan Narcissus', dateOfBirth: '2008-08-08' },
    [123456789],
  ),
  search(
    'original forenames are not searched',
    BIRTH_V1,
    { surname: 'Smith', forenames: 'John', dateOfBirth: '2008-08-08' },
    [],
  ),
  search(
    'a forename prefix that is not a whole word',
    BIRTH_V1,
    { surname: 'Multiple', forenames: 'Tes', dateOfBirth: '2010-01-01' },
    [],
  ),
  search('a surname prefix', BIRTH_V1, { surname: 'Multipl', forenames: 'Tester', dateOfBirth: '2010-01-01' }, []),
  search(
    'a registration and its re-registration',
    BIRTH_V1,
    { surname: 'Howard', forenames: 'Zack', dateOfBirth: '2012-10-10' },
    [999999930, 999999931],
  ),
  search(
    'blocked birth, by its row columns (v1)',
    BIRTH_V1,
    { surname: 'Blocked', forenames: 'Tester', dateOfBirth: '2000-02-01' },
    [999999920],
  ),
  search(
    'blocked birth, by its row columns (v0)',
    BIRTH_V0,
    { lastname: 'Blocked', forenames: 'Tester', dateofbirth: '2000-02-01' },
    [999999920],
  ),
  search(
    'blocked re-registration, by its row columns',
    BIRTH_V1,
    { surname: 'Allflags', forenames: 'Tester', dateOfBirth: '2000-02-01' },
    [999999926],
  ),

  // Deaths: found by either date, each record once
  search(
    'multiple deaths by date of birth',
    DEATH,
    { surname: 'Multiple', forenames: 'Tester', date: '1910-01-01' },
    MULTIPLE,
  ),
  search(
    'multiple deaths by date of death',
    DEATH,
    { surname: 'MULTIPLE', forenames: 'Tester', date: '2010-01-01' },
    MULTIPLE,
  ),
  search(
    'solo death by date of birth',
    DEATH,
    { surname: 'Solo', forenames: 'Tester', date: '1912-02-29' },
    [999999910],
  ),
  search(
    'solo death by date of death',
    DEATH,
    { surname: 'Solo', forenames: 'Tester', date: '2012-02-29' },
    [999999910],
  ),
  search(
    'born and died the same day: found once',
    DEATH,
    { surname: 'Smith', forenames: 'Joan', date: '2008-08-08' },
    [123456789],
  ),
  search(
    'null date of birth: found by date of death',
    DEATH,
    { surname: 'Corrected', forenames: 'Tester Simple Clerical', date: '2012-02-29' },
    [999999931, 999999963],
  ),
  search(
    'null date of birth: not found by the other date',
    DEATH,
    { surname: 'Corrected', forenames: 'Tester Simple Clerical', date: '1912-02-29' },
    [999999931],
  ),
  search(
    'hyphenated forename, spelt with a space',
    DEATH,
    { surname: 'Marginal', forenames: 'Tester Re registered', date: '2012-02-29' },
    [999999940],
  ),
  search(
    'blocked death, by its row columns',
    DEATH,
    { surname: 'Blocked', forenames: 'Tester', date: '1912-02-29' },
    [999999920],
  ),
  search(
    'a chain, the blocked middle found by its row columns',
    DEATH,
    { surname: 'Registration', forenames: 'Tester Previous', date: '2012-02-29' },
    [999999961, 999999971],
  ),

  // Marriages: found through the bride or the groom
  search('bride search', MARRIAGE, { surname: 'bride', forenames: 'test', dateOfMarriage: '2012-02-29' }, [
    ...MULTIPLE,
    999999910,
    999999970,
    999999971,
    999999972,
  ]),
  search(
    'groom search',
    MARRIAGE,
    { surname: 'Multiple', forenames: 'Tester', dateOfMarriage: '2012-02-29' },
    MULTIPLE,
  ),
  search(
    'groom on another date',
    MARRIAGE,
    { surname: 'Multiple', forenames: 'Tester Three', dateOfMarriage: '2020-02-29' },
    [999999904],
  ),
  search(
    'fully populated marriage through the groom',
    MARRIAGE,
    { surname: 'Smith', forenames: 'John', dateOfMarriage: '2008-08-08' },
    [123456789],
  ),
  search(
    'fully populated marriage through the bride',
    MARRIAGE,
    { surname: 'Black', forenames: 'Joan', dateOfMarriage: '2008-08-08' },
    [123456789],
  ),
  search(
    'a chain with a blocked middle, by the groom',
    MARRIAGE,
    { surname: 'Linked', forenames: 'Tester', dateOfMarriage: '2012-02-29' },
    [999999970, 999999971, 999999972],
  ),

  // Civil partnerships: found through either partner
  search(
    'partner1 search',
    PARTNERSHIP,
    { surname: 'Multiple', forenames: 'Tester', dateOfPartnership: '2012-02-29' },
    MULTIPLE,
  ),
  search('partner2 search', PARTNERSHIP, { surname: 'Bride', forenames: 'Test', dateOfPartnership: '2012-02-29' }, [
    ...MULTIPLE,
    999999910,
  ]),
  search(
    'partner1 on another date',
    PARTNERSHIP,
    { surname: 'Multiple', forenames: 'Tester Three', dateOfPartnership: '2010-02-12' },
    [999999904],
  ),
  search(
    'fully populated partnership through partner1',
    PARTNERSHIP,
    { surname: 'Smith', forenames: 'John', dateOfPartnership: '2008-08-08' },
    [123456789],
  ),
  search(
    'fully populated partnership through partner2',
    PARTNERSHIP,
    { surname: 'Black', forenames: 'Joan', dateOfPartnership: '2008-08-08' },
    [123456789],
  ),
  search(
    'a chain with a blocked middle, by partner2',
    PARTNERSHIP,
    { surname: 'Bridge', forenames: 'Test', dateOfPartnership: '2012-02-29' },
    [999999970, 999999971, 999999972],
  ),
  search(
    'a chain with a blocked middle, by partner1',
    PARTNERSHIP,
    { surname: 'Linked', forenames: 'Tester', dateOfPartnership: '2012-02-29' },
    [999999970, 999999971, 999999972],
  ),
];

// ---------------------------------------------------------------------------
// The checks
// ---------------------------------------------------------------------------
const TYPES = ['birth', 'death', 'marriage', 'partnership'] as const;

test('the reference mock records are served as the existing service serves them', { skip }, async (t: TestContext) => {
  const v1 = Object.fromEntries(
    await Promise.all(TYPES.map(async (type) => [type, await rows(`${type}_registration_v1.json`)] as const)),
  );
  const v0 = new Map((await rows('birth_registration_v0.json')).map((row) => [row.id, row]));

  for (const kind of await storeKinds()) {
    await t.test(`${kind} store`, async (t) => {
      const app = await startApp(t, await filledStore(t, kind, MOCK_DATA));

      await t.test('every v1 birth is served by the v0 lookup as the reference v0 record', async () => {
        assert.equal(v0.size, v1.birth.length);
        for (const { id } of v1.birth) {
          const reference = v0.get(id);
          assert.ok(reference, `birth ${id} has a reference v0 record`);
          for (const [who, headers, fullDetails] of [
            ['with full-details', FULL_DETAILS, true],
            ['without full-details', CALLER, false],
          ] as const) {
            const actual = await getOk(app, `${BIRTH_V0}/${id}`, headers);
            assertSameAsReference(
              actual,
              referenceOutput(reference.data, V0_RULES, fullDetails),
              `v0 birth ${id} ${who}`,
            );
          }
        }
      });

      await t.test('blocked v0 births show only their ids and the blocked flag', async () => {
        for (const id of [999999920, 999999926]) {
          const body = (await getOk(app, `${BIRTH_V0}/${id}`, FULL_DETAILS)) as JsonObject;
          assert.equal(body.id, id);
          assert.equal(body.systemNumber, id);
          assert.deepEqual(body.status, {
            potentiallyFictitiousBirth: null,
            correction: null,
            cancelled: null,
            blockedRegistration: true,
            marginalNote: null,
            reRegistered: null,
          });
          assert.deepEqual(body.previousRegistration, { date: null, systemNumber: null });
        }
      });

      for (const type of TYPES) {
        await t.test(`every v1 ${type} lookup with full-details is the stored record, nulls stripped`, async () => {
          for (const row of v1[type]) {
            const actual = await getOk(app, `/v1/registration/${type}/${row.id}`, FULL_DETAILS);
            assertSameAsReference(actual, referenceOutput(row.data, V1_RULES, true), `v1 ${type} ${row.id}`);
          }
        });
      }

      await t.test('a record without links leaves both keys out, as the existing service does', async () => {
        let checked = 0;
        for (const type of TYPES) {
          for (const row of v1[type].filter(
            (r) => r.data.previousRegistration == null && r.data.nextRegistration == null,
          )) {
            for (const headers of [FULL_DETAILS, CALLER]) {
              const body = (await getOk(app, `/v1/registration/${type}/${row.id}`, headers)) as JsonObject;
              assert.ok(!('previousRegistration' in body) && !('nextRegistration' in body), `${type} ${row.id}`);
              checked++;
            }
          }
        }
        // Blocked ones included: birth and death 999999920 have no links.
        const blocked = (await getOk(app, `${BIRTH_V1}/999999920`, FULL_DETAILS)) as JsonObject;
        assert.deepEqual(
          Object.keys(blocked).filter((key) => key.endsWith('Registration')),
          [],
        );
        assert.ok(checked > 0);
      });

      await t.test(
        'a blocked v1 record hides its links; a linked blocked record is shown redacted, its chain stopping there',
        async () => {
          const blocked = (await getOk(app, `${BIRTH_V1}/999999926`, FULL_DETAILS)) as JsonObject;
          assert.ok(!('previousRegistration' in blocked), 'left out, as if there were none');
          assert.ok(!('nextRegistration' in blocked));
          // Death 999999970 -> 971 (blocked) -> 972: the chain stops at 971; 972 answers its own lookup.
          const first = (await getOk(app, `${DEATH}/999999970`, FULL_DETAILS)) as JsonObject;
          const middle = first.nextRegistration as JsonObject;
          assert.equal(middle.id, 999999971);
          assert.ok(!('nextRegistration' in middle), 'the blocked middle hides its own link onwards');
          const last = (await getOk(app, `${DEATH}/999999972`, FULL_DETAILS)) as JsonObject;
          assert.equal((last.previousRegistration as JsonObject).id, 999999971);
          assert.ok(!('previousRegistration' in (last.previousRegistration as JsonObject)));
          const chain = (await getOk(app, `${BIRTH_V1}/999999925`, FULL_DETAILS)) as JsonObject;
          const next = chain.nextRegistration as JsonObject;
          assert.equal(next.id, 999999926);
          assert.deepEqual(next.status, {
            blocked: true,
            marginalNote: null,
            cancelled: null,
            correction: null,
            nameUpdate: null,
            onAuthorityOfRegistrarGeneral: null,
            potentiallyFictitious: null,
            praOrCourtOrder: null,
            reregistration: null,
          });
          assert.equal((chain.previousRegistration as JsonObject).id, 999999922);
        },
      );

      for (const s of SEARCHES) {
        await t.test(`search: ${s.what}`, async () => {
          const path = `${s.path}?${new URLSearchParams(s.query)}`;
          const found = (await getOk(app, path, FULL_DETAILS)) as JsonObject[];
          assert.ok(Array.isArray(found), path);
          assert.deepEqual(
            found.map((record) => record.id),
            s.ids,
            path,
          );
          // A search result is the record as its lookup shows it.
          for (const record of found)
            assert.deepEqual(record, await getOk(app, `${s.path}/${record.id}`, FULL_DETAILS), `${path}: ${record.id}`);
        });
      }
    });
  }
});
