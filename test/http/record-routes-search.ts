/**
 * Searches of the record routes as the search tests run them: a view's own
 * parameter names, the scenario rows of the mock dataset, and the checks every
 * search answer must pass.
 */
import assert from 'node:assert/strict';
import type { SearchableScenario as Scenario } from '../../src/mock/dataset.ts';
import { readPath } from '../../src/records/define.ts';
import type { ViewDescription } from '../../src/records/views.ts';
import { views, searchableScenarios as scenarios } from '../record-types.ts';
import { CALLER, type RunningApp } from '../helper.ts';
import type { Json } from './record-routes-fixture.ts';

export const TRUNCATED = 'x-results-truncated';

export const viewsOf = (type: string) => views.filter((view) => view.record.name === type);

export const queryString = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');

/** A search of the view by surname, forenames and date, with the view's own parameter names. */
export function searchParams(
  view: ViewDescription,
  surname: string,
  forenames: string,
  date: string,
): Record<string, string> {
  return { [view.query.surname]: surname, [view.query.forenames]: forenames, [view.query.date]: date };
}

/** The same search as a scenario row, in the view's parameter names. */
export function scenarioParams(view: ViewDescription, scenario: Scenario): Record<string, string> {
  const { surname, forenames } = scenario.search;
  return searchParams(view, surname, forenames, scenario.search[view.record.search.dateParam]);
}

/** Runs a search and checks what every search must be: 200, an array, distinct ids in ascending order. */
export async function search(
  app: RunningApp,
  view: ViewDescription,
  params: Record<string, string>,
  headers: Record<string, string> = CALLER,
) {
  const response = await app.get(`${view.path}?${queryString(params)}`, headers);
  assert.equal(response.status, 200, `${view.path} ${JSON.stringify(params)}: ${response.text}`);
  assert.ok(Array.isArray(response.body), 'a search answers a bare array');
  const ids = (response.body as Json[]).map((record) => record.id as number);
  for (let i = 1; i < ids.length; i++)
    assert.ok(ids[i - 1] < ids[i], `ids are distinct and ascending: ${ids.join(', ')}`);
  return { ids, records: response.body as Json[], truncated: response.headers.get(TRUNCATED) };
}

/** Each party of a stored record as a search that must find it: names as stored, date from any of the party's dates. */
export function partySearches(view: ViewDescription, v1: Json) {
  return view.record.search.parties.flatMap((party) => {
    const surname = readPath(v1, party.surname);
    const forenames = readPath(v1, party.forenames);
    if (typeof surname !== 'string' || typeof forenames !== 'string') return [];
    return party.dates
      .map((path) => readPath(v1, path))
      .filter((date): date is string => typeof date === 'string')
      .map((date) => ({ surname, forenames, date }));
  });
}

/** Scenario rows grouped by type and search, with the ids each search must find. */
export function scenarioGroups() {
  const groups = new Map<string, { type: string; example: Scenario; ids: number[] }>();
  for (const scenario of scenarios) {
    const key = `${scenario.type} ${JSON.stringify(scenario.search)}`;
    const group = groups.get(key) ?? { type: scenario.type, example: scenario, ids: [] };
    if (!group.ids.includes(scenario.id)) group.ids.push(scenario.id);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({ ...group, ids: group.ids.sort((a, b) => a - b) }));
}
