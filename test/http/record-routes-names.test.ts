/**
 * How a search matches names, over a real socket, on every store kind:
 * forenames as whole leading words and the surname in full, with case, extra
 * spaces, accents, hyphens and apostrophes ignored.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readPath } from '../../src/records/define.ts';
import { views, searchableScenarios as scenarios } from '../record-types.ts';
import { storeKinds } from '../helper.ts';
import { FULL_ID, sharedStore, storedV1 } from './record-routes-fixture.ts';
import { scenarioParams, search, searchParams, viewsOf } from './record-routes-search.ts';

const stripAccents = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[øØ]/g, (c) => (c === 'ø' ? 'o' : 'O'));

for (const kind of await storeKinds()) {
  describe(`record routes on the ${kind} store`, () => {
    const app = sharedStore(kind)();

    describe('searches', () => {
      test('forenames match as whole leading words; the surname matches in full', async () => {
        for (const view of views) {
          const v1 = storedV1(view, FULL_ID);
          const [party] = view.record.search.parties;
          const surname = readPath(v1, party.surname) as string;
          const forenames = readPath(v1, party.forenames) as string;
          const date = readPath(v1, party.dates[0]) as string;
          const words = forenames.split(' ');
          assert.ok(
            words.length >= 2 && words.every((w) => w.length >= 3),
            `${view.path} ${FULL_ID} has several forenames`,
          );
          const finds = async (s: string, f: string) =>
            (await search(app(), view, searchParams(view, s, f, date))).ids.includes(FULL_ID);

          assert.ok(await finds(surname, forenames), 'all forenames');
          assert.ok(await finds(surname, words[0]), 'the first forename');
          assert.ok(await finds(surname.toUpperCase(), forenames.toLowerCase()), 'case is ignored');
          assert.ok(await finds(`  ${surname} `, ` ${words.join('   ')} `), 'extra spaces are ignored');
          assert.ok(!(await finds(surname, words[0].slice(0, -1))), 'part of a word is not a word');
          assert.ok(!(await finds(surname, `${words[0]}${words[1]}`)), 'words run together are another word');
          assert.ok(!(await finds(surname, words[1])), 'a later forename alone is not a leading word');
          assert.ok(
            !(await finds(surname, `${words[0]} ${words[1].slice(0, -1)}`)),
            'the last word given must be whole too',
          );
          assert.ok(!(await finds(surname, `${forenames} Extra`)), 'more forenames than recorded');
          assert.ok(!(await finds(surname.slice(0, -1), forenames)), 'part of the surname');
          assert.ok(!(await finds(`${surname} Extra`, forenames)), 'more than the surname');
          assert.ok(!(await finds(surname, `${words[0]}x`)), 'a longer first word');
        }
      });

      const withChar = (pattern: RegExp) =>
        scenarios.filter((s) => pattern.test(s.search.surname) || pattern.test(s.search.forenames));

      test('accents are ignored, both in the query and in the record', async () => {
        const accented = withChar(/[^\x00-\x7f]/);
        assert.ok(
          accented.some((s) => /[øØ]/.test(s.search.surname + s.search.forenames)),
          'the mock has an ø',
        );
        for (const scenario of accented) {
          for (const view of viewsOf(scenario.type)) {
            const plain = {
              ...scenario.search,
              surname: stripAccents(scenario.search.surname),
              forenames: stripAccents(scenario.search.forenames),
            };
            assert.match(plain.surname + plain.forenames, /^[\x00-\x7f]*$/);
            const { ids } = await search(app(), view, scenarioParams(view, { ...scenario, search: plain }));
            assert.ok(
              ids.includes(scenario.id),
              `${scenario.type} ${scenario.id} found by ${plain.forenames} ${plain.surname}`,
            );
          }
        }
        for (const view of views) {
          const v1 = storedV1(view, FULL_ID);
          const [party] = view.record.search.parties;
          const accent = (name: string) => name.replace(/[aeiouAEIOU]/, (vowel) => `${vowel}\u0301`).normalize('NFC');
          const params = searchParams(
            view,
            accent(readPath(v1, party.surname) as string),
            accent(readPath(v1, party.forenames) as string),
            readPath(v1, party.dates[0]) as string,
          );
          assert.ok(
            (await search(app(), view, params)).ids.includes(FULL_ID),
            `${view.path}: accents added to a plain name`,
          );
        }
      });

      test('hyphens count as spaces', async () => {
        const hyphenated = withChar(/-/);
        assert.ok(hyphenated.length > 0, 'the mock has hyphenated names');
        for (const scenario of hyphenated) {
          for (const view of viewsOf(scenario.type)) {
            const spaced = {
              ...scenario.search,
              surname: scenario.search.surname.replace(/-/g, ' '),
              forenames: scenario.search.forenames.replace(/-/g, ' '),
            };
            let { ids } = await search(app(), view, scenarioParams(view, { ...scenario, search: spaced }));
            assert.ok(ids.includes(scenario.id), `${scenario.id} found with spaces for hyphens`);
            const [firstWord] = scenario.search.forenames.split(/[\s-]/);
            ({ ids } = await search(
              app(),
              view,
              scenarioParams(view, { ...scenario, search: { ...scenario.search, forenames: firstWord } }),
            ));
            assert.ok(ids.includes(scenario.id), `${scenario.id} found by the first part of a hyphenated forename`);
            if (scenario.search.surname.includes('-')) {
              const [firstPart] = scenario.search.surname.split('-');
              ({ ids } = await search(
                app(),
                view,
                scenarioParams(view, { ...scenario, search: { ...scenario.search, surname: firstPart } }),
              ));
              assert.ok(!ids.includes(scenario.id), `${scenario.id} not found by part of a hyphenated surname`);
            }
          }
        }
      });

      test("apostrophes are ignored (O'Brien = OBrien = O’Brien)", async () => {
        const apostrophed = withChar(/'/);
        assert.ok(apostrophed.length > 0, 'the mock has names with apostrophes');
        for (const scenario of apostrophed) {
          for (const view of viewsOf(scenario.type)) {
            for (const replacement of ['', '’']) {
              const changed = {
                ...scenario.search,
                surname: scenario.search.surname.replace(/'/g, replacement),
                forenames: scenario.search.forenames.replace(/'/g, replacement),
              };
              const { ids } = await search(app(), view, scenarioParams(view, { ...scenario, search: changed }));
              assert.ok(ids.includes(scenario.id), `${scenario.id} found by ${changed.surname}`);
            }
          }
        }
      });
    });
  });
}
