/**
 * Searches of every view, over a real socket, on every store kind: each mock
 * scenario found, by every party and each of its dates (v0 by its forename
 * parts too), once, in ascending id order and rendered as its lookup, and cut
 * at MAX_RESULTS with `x-results-truncated`. How names match is
 * record-routes-names.test.ts's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readPath } from '../../src/records/define.ts';
import type { ViewDescription } from '../../src/records/views.ts';
import { views, closeMatchOnlyScenarios, searchableScenarios as scenarios } from '../record-types.ts';
import { CALLER, FULL_DETAILS, storeKinds, testConfig } from '../helper.ts';
import {
  FULL_ID,
  type Json,
  expectedRender,
  recordsOf,
  sharedStore,
  storedById,
  storedV1,
} from './record-routes-fixture.ts';
import {
  TRUNCATED,
  partySearches,
  queryString,
  scenarioGroups,
  scenarioParams,
  search,
  searchParams,
  viewsOf,
} from './record-routes-search.ts';

for (const kind of await storeKinds()) {
  describe(`record routes on the ${kind} store`, () => {
    const appFor = sharedStore(kind);
    const app = appFor();

    describe('searches', () => {
      for (const scenario of scenarios) {
        for (const view of viewsOf(scenario.type)) {
          test(`${view.version} ${scenario.type} ${scenario.id}: ${scenario.shows}`, async () => {
            const { ids } = await search(app(), view, scenarioParams(view, scenario));
            assert.ok(ids.includes(scenario.id), `found ${ids.join(', ') || 'nothing'}`);
          });
        }
      }

      test('v0 finds every birth scenario with forename1..forename4 instead of forenames', async () => {
        const v0 = views.find((view) => view.version === 'v0') as ViewDescription;
        const parts = v0.query.forenameParts ?? [];
        assert.ok(parts.length > 0);
        for (const scenario of scenarios.filter((s) => s.type === v0.record.name)) {
          const words = scenario.search.forenames.split(/\s+/);
          const params: Record<string, string> = {
            [v0.query.surname]: scenario.search.surname,
            [v0.query.date]: scenario.search[v0.record.search.dateParam],
          };
          words.slice(0, parts.length).forEach((word, i) => (params[parts[i]] = word));
          const { ids } = await search(app(), v0, params);
          assert.ok(ids.includes(scenario.id), `${scenario.id} found by ${JSON.stringify(params)}`);
        }
      });

      test('every party of every stored record finds it, by its names as stored and by each of its dates', async () => {
        // Those with no forenames registered, which only a close match finds, aside.
        const unsearchable = (view: ViewDescription, v1: Json) =>
          closeMatchOnlyScenarios.some((s) => s.type === view.record.name && s.id === v1.id);
        for (const view of views) {
          for (const v1 of recordsOf(view).filter((record) => !unsearchable(view, record))) {
            const searches = partySearches(view, v1);
            assert.ok(searches.length >= view.record.search.parties.length, `${view.record.name} ${v1.id} is findable`);
            for (const { surname, forenames, date } of searches) {
              const { ids } = await search(app(), view, searchParams(view, surname, forenames, date));
              assert.ok(ids.includes(v1.id as number), `${view.path} ${v1.id} via ${forenames} ${surname} ${date}`);
            }
          }
        }
      });

      test('marriages and partnerships are found through either party', async () => {
        for (const type of ['marriage', 'partnership']) {
          const [view] = viewsOf(type);
          assert.ok(view.record.search.parties.length === 2, `${type} has two parties`);
          const v1 = storedV1(view, FULL_ID);
          const found = new Set<string>();
          for (const party of view.record.search.parties) {
            const params = searchParams(
              view,
              readPath(v1, party.surname) as string,
              readPath(v1, party.forenames) as string,
              readPath(v1, party.dates[0]) as string,
            );
            found.add(String(readPath(v1, party.surname)));
            const { ids } = await search(app(), view, params);
            assert.deepEqual(ids, [FULL_ID], `${type} found through ${party.surname}`);
          }
          assert.equal(found.size, 2, `${type}: the two parties have different surnames`);
        }
      });

      test('a death whose dates of birth and death are equal is found once by that date', async () => {
        const [view] = viewsOf('death');
        const [party] = view.record.search.parties;
        const sameDay = recordsOf(view).filter((v1) => {
          const dates = party.dates.map((path) => readPath(v1, path));
          return typeof dates[0] === 'string' && dates.every((date) => date === dates[0]);
        });
        assert.ok(sameDay.length > 0, 'the mock has a death on the day of birth');
        for (const v1 of sameDay) {
          const params = searchParams(
            view,
            readPath(v1, party.surname) as string,
            readPath(v1, party.forenames) as string,
            readPath(v1, party.dates[0]) as string,
          );
          const { ids } = await search(app(), view, params);
          assert.deepEqual(
            ids.filter((id) => id === v1.id),
            [v1.id],
            `${v1.id} appears once`,
          );
        }
      });

      test('a death is found by the date of birth and by the date of death', async () => {
        const [view] = viewsOf('death');
        const [party] = view.record.search.parties;
        let both = 0;
        for (const v1 of recordsOf(view)) {
          const dates = party.dates.map((path) => readPath(v1, path)).filter((d): d is string => typeof d === 'string');
          if (new Set(dates).size === party.dates.length) both++;
          for (const date of dates) {
            const params = searchParams(
              view,
              readPath(v1, party.surname) as string,
              readPath(v1, party.forenames) as string,
              date,
            );
            assert.ok((await search(app(), view, params)).ids.includes(v1.id as number), `${v1.id} by ${date}`);
          }
        }
        assert.ok(both > 0, 'the mock has deaths with distinct dates of birth and death');
      });

      test('results are in ascending id order and say how they render', async () => {
        const several = scenarioGroups().filter((group) => group.ids.length > 1);
        assert.ok(several.length > 0, 'the mock has searches with several matches');
        for (const group of several) {
          for (const view of viewsOf(group.type)) {
            for (const [audience, headers] of [
              ['full-details', FULL_DETAILS],
              ['basic', CALLER],
            ] as const) {
              const { ids, records, truncated } = await search(
                app(),
                view,
                scenarioParams(view, group.example),
                headers,
              );
              assert.deepEqual(ids, group.ids, `${view.path} ${JSON.stringify(group.example.search)}`);
              assert.equal(truncated, null, 'not truncated under the default limit');
              records.forEach((record, i) =>
                assert.deepEqual(
                  record,
                  expectedRender(view.fields, view.blockedFlag, storedById(view, ids[i]), audience === 'full-details'),
                ),
              );
            }
          }
        }
      });

      test('a search that matches nothing answers []', async () => {
        for (const view of views) {
          const { records, truncated } = await search(
            app(),
            view,
            searchParams(view, 'Nobodyatall', 'Nemo', '1901-01-01'),
          );
          assert.deepEqual(records, []);
          assert.equal(truncated, null);
        }
      });
    });

    describe('MAX_RESULTS', () => {
      const two = appFor(testConfig({ MAX_RESULTS: '2' }));
      const three = appFor(testConfig({ MAX_RESULTS: '3' }));
      const groups = scenarioGroups().filter((group) => group.ids.length === 3);

      test('more matches than MAX_RESULTS: the first ones, and x-results-truncated: true', async () => {
        assert.ok(groups.length > 0, 'the mock has searches with three matches');
        for (const group of groups) {
          for (const view of viewsOf(group.type)) {
            const response = await two().get(`${view.path}?${queryString(scenarioParams(view, group.example))}`);
            assert.equal(response.status, 200);
            assert.ok(Array.isArray(response.body), 'the body stays a bare array');
            assert.deepEqual(
              (response.body as Json[]).map((record) => record.id),
              group.ids.slice(0, 2),
            );
            assert.equal(response.headers.get(TRUNCATED), 'true');
          }
        }
      });

      test('exactly MAX_RESULTS matches: all of them, not truncated', async () => {
        for (const group of groups) {
          for (const view of viewsOf(group.type)) {
            const { ids, truncated } = await search(three(), view, scenarioParams(view, group.example));
            assert.deepEqual(ids, group.ids);
            assert.equal(truncated, null);
          }
        }
      });
    });
  });
}
