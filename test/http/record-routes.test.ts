/**
 * Lookups and searches of every view, over a real socket, on every store kind
 * (embedded always, PostgreSQL where a server answers). Expectations are
 * derived by walking the view descriptions over the built-in mock records and
 * their scenario files, never retyped from them.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Config } from '../../src/config/index.ts';
import { type SearchableScenario as Scenario, mockRecords } from '../../src/mock/dataset.ts';
import {
  type Fields,
  type Visibility,
  HIDDEN,
  groupFields,
  isBlocked,
  isLeaf,
  isLink,
  isList,
  readPath,
  visibilityOf,
} from '../../src/records/define.ts';
import type { ViewDescription } from '../../src/records/views.ts';
import { views, builtInTypes, builtInScenarios, closeMatchOnlyScenarios, searchableScenarios as scenarios } from '../record-types.ts';
import { CALLER, FULL_DETAILS, type RunningApp, type StoreKind, type TestStore, filledStore, startApp, storeKinds, suiteContext, testConfig } from '../helper.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const FULL_ID = 123456789;
const TRUNCATED = 'x-results-truncated';

// ---------------------------------------------------------------------------
// The app, once per suite
// ---------------------------------------------------------------------------

/**
 * One store filled with the mock dataset per store kind, opened before the
 * enclosing suite's tests; apps over it (with any configuration) are started
 * before the tests of the suite that asks for them. Everything is closed, apps
 * first, when the suite that opened the store ends.
 */
function sharedStore(kind: StoreKind) {
  let store: TestStore | undefined;
  const context = suiteContext();
  before(async () => {
    store = await filledStore(context, kind);
  });
  /** An app over the shared store, started before the calling suite's tests. */
  return function appFor(config?: Config): () => RunningApp {
    let running: RunningApp | undefined;
    before(async () => {
      assert.ok(store, 'the store is open');
      running = await startApp(context, store, config);
    });
    return () => {
      assert.ok(running, 'the app is running');
      return running;
    };
  };
}

// ---------------------------------------------------------------------------
// Stored records and what the description says they look like
// ---------------------------------------------------------------------------

const mock = mockRecords(builtInTypes, builtInScenarios) as unknown as Record<string, Json[]>;

/** Every stored (v1) record of the view's type. */
const recordsOf = (view: ViewDescription): Json[] => mock[view.record.name] ?? [];

/** The stored record in the view's own shape (v0 is a projection of v1). */
function storedFor(view: ViewDescription, v1: Json): Json {
  return (view.project ? view.project(v1) : v1) as Json;
}

/** The stored v1 record of the view's type with that id. */
function storedV1(view: ViewDescription, id: number): Json {
  const v1 = recordsOf(view).find((record) => record.id === id);
  assert.ok(v1, `the mock has ${view.record.name} ${id}`);
  return v1;
}

const storedById = (view: ViewDescription, id: number): Json => storedFor(view, storedV1(view, id));

const shown = (visibility: Visibility, blocked: boolean, fullDetails: boolean) =>
  visibility === 'always' || (!blocked && (visibility === 'basic' || fullDetails));

const withoutNulls = (item: unknown): Json =>
  Object.fromEntries(Object.entries(isObject(item) ? item : {}).filter(([, value]) => value != null));

function setPath(target: Json, path: string, value: unknown) {
  const keys = path.split('.');
  let holder = target;
  for (const key of keys.slice(0, -1)) holder = holder[key] as Json;
  holder[keys[keys.length - 1]] = value;
}

/**
 * What a record must render as, worked out from the description alone: hidden
 * leaves null, visible unrecorded leaves absent, groups always present, lists
 * `[]` when hidden or missing, links redacted by their own flag and left out of
 * a blocked record, and the blocked flag stated as a boolean.
 */
function expectedRender(fields: Fields, blockedFlag: string, stored: unknown, fullDetails: boolean): Json {
  const blocked = isBlocked(stored, blockedFlag);
  const walk = (group: Fields, value: unknown): Json => {
    const source = isObject(value) ? value : {};
    const out: Json = {};
    for (const [key, field] of Object.entries(group)) {
      const v = source[key];
      let rendered: unknown;
      if (isLeaf(field)) rendered = shown(visibilityOf(field), blocked, fullDetails) && v !== HIDDEN ? (v ?? undefined) : null;
      else if (isList(field)) rendered = shown(field.visibility, blocked, fullDetails) && Array.isArray(v) ? v.map(withoutNulls) : [];
      else if (isLink(field)) rendered = blocked || v == null ? undefined : expectedRender(fields, blockedFlag, v, fullDetails);
      else rendered = walk(groupFields(field), v);
      if (rendered !== undefined) out[key] = rendered;
    }
    return out;
  };
  const out = walk(fields, stored);
  setPath(out, blockedFlag, blocked);
  return out;
}

interface Visited {
  readonly path: string;
  readonly kind: 'leaf' | 'list' | 'link';
  readonly visibility: Visibility | undefined;
  readonly present: boolean;
  readonly value: unknown;
}

/** Every leaf, list and link of a rendered record, checking on the way that groups are objects and no key is undescribed. */
function visit(fields: Fields, rendered: unknown, path = ''): Visited[] {
  assert.ok(isObject(rendered), `${path || 'the record'} is an object`);
  assert.deepEqual(
    Object.keys(rendered).filter((key) => !(key in fields)),
    [],
    `${path || 'the record'} has only described keys`,
  );
  const out: Visited[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const at = path ? `${path}.${key}` : key;
    const entry = { path: at, present: key in rendered, value: rendered[key] };
    if (isLeaf(field)) out.push({ ...entry, kind: 'leaf', visibility: visibilityOf(field) });
    else if (isList(field)) {
      assert.ok(Array.isArray(entry.value), `${at} is an array`);
      out.push({ ...entry, kind: 'list', visibility: field.visibility });
    } else if (isLink(field)) out.push({ ...entry, kind: 'link', visibility: undefined });
    else out.push(...visit(groupFields(field), entry.value, at));
  }
  return out;
}

const hasLinks = (fields: Fields): boolean =>
  Object.values(fields).some((field) => isLink(field) || (!isLeaf(field) && !isList(field) && hasLinks(groupFields(field))));

/** A blocked record as rendered: its always-shown ids and a true flag, every other leaf null, lists empty, links left out. */
function assertOnlyIdAndFlag(view: ViewDescription, rendered: unknown, id: number, where: string) {
  for (const item of visit(view.fields, rendered)) {
    if (item.kind === 'leaf' && item.visibility === 'always') {
      assert.equal(item.value, item.path === view.blockedFlag ? true : id, `${where}: ${item.path}`);
    } else if (item.kind === 'list') {
      assert.deepEqual(item.value, [], `${where}: ${item.path} is empty`);
    } else if (item.kind === 'link') {
      assert.ok(!item.present, `${where}: ${item.path} is left out`);
    } else {
      assert.ok(item.present, `${where}: ${item.path} is present`);
      assert.equal(item.value, null, `${where}: ${item.path} is null`);
    }
  }
}

// ---------------------------------------------------------------------------
// Searches
// ---------------------------------------------------------------------------

const viewsOf = (type: string) => views.filter((view) => view.record.name === type);

const queryString = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');

/** A search of the view by surname, forenames and date, with the view's own parameter names. */
function searchParams(view: ViewDescription, surname: string, forenames: string, date: string): Record<string, string> {
  return { [view.query.surname]: surname, [view.query.forenames]: forenames, [view.query.date]: date };
}

/** The same search as a scenario row, in the view's parameter names. */
function scenarioParams(view: ViewDescription, scenario: Scenario): Record<string, string> {
  const { surname, forenames } = scenario.search;
  return searchParams(view, surname, forenames, scenario.search[view.record.search.dateParam]);
}

/** Runs a search and checks what every search must be: 200, an array, distinct ids in ascending order. */
async function search(app: RunningApp, view: ViewDescription, params: Record<string, string>, headers: Record<string, string> = CALLER) {
  const response = await app.get(`${view.path}?${queryString(params)}`, headers);
  assert.equal(response.status, 200, `${view.path} ${JSON.stringify(params)}: ${response.text}`);
  assert.ok(Array.isArray(response.body), 'a search answers a bare array');
  const ids = (response.body as Json[]).map((record) => record.id as number);
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `ids are distinct and ascending: ${ids.join(', ')}`);
  return { ids, records: response.body as Json[], truncated: response.headers.get(TRUNCATED) };
}

/** Each party of a stored record as a search that must find it: names as stored, date from any of the party's dates. */
function partySearches(view: ViewDescription, v1: Json) {
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
function scenarioGroups() {
  const groups = new Map<string, { type: string; example: Scenario; ids: number[] }>();
  for (const scenario of scenarios) {
    const key = `${scenario.type} ${JSON.stringify(scenario.search)}`;
    const group = groups.get(key) ?? { type: scenario.type, example: scenario, ids: [] };
    if (!group.ids.includes(scenario.id)) group.ids.push(scenario.id);
    groups.set(key, group);
  }
  return [...groups.values()].map((group) => ({ ...group, ids: group.ids.sort((a, b) => a - b) }));
}

const stripAccents = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[øØ]/g, (c) => (c === 'ø' ? 'o' : 'O'));

// ---------------------------------------------------------------------------

for (const kind of await storeKinds()) {
  describe(`record routes on the ${kind} store`, () => {
    const appFor = sharedStore(kind);
    const app = appFor();

    for (const view of views) {
      const linked = hasLinks(view.fields);

      describe(`${view.version} ${view.record.name}: lookups at ${view.path}/{${view.idParam}}`, () => {
        test(`${FULL_ID} with full-details has every field filled, no null, and only described keys`, async () => {
          const stored = storedById(view, FULL_ID);
          const response = await app().get(`${view.path}/${FULL_ID}`, FULL_DETAILS);
          assert.equal(response.status, 200, response.text);
          for (const item of visit(view.fields, response.body)) {
            const value = readPath(stored, item.path);
            if (item.kind === 'link') {
              assert.equal(value, null, `the mock ${FULL_ID} has no ${item.path}`);
              assert.ok(!item.present, `${item.path} is absent when nothing is linked`);
              continue;
            }
            assert.notEqual(item.value, null, `${item.path} is not null`);
            if (!view.project) assert.notEqual(value, null, `the mock fills ${item.path}`);
            if (item.kind === 'list') {
              assert.ok((item.value as unknown[]).length > 0, `${item.path} is filled`);
              for (const entry of item.value as unknown[]) {
                assert.ok(isObject(entry), `${item.path} holds objects`);
                assert.ok(Object.values(entry).every((v) => v !== null), `${item.path} items hold no null`);
              }
              assert.deepEqual(item.value, (value as unknown[]).map(withoutNulls), `${item.path} is as stored`);
            } else if (value == null) {
              assert.ok(!item.present, `${item.path} is absent: nothing is recorded`);
            } else {
              assert.deepEqual(item.value, value, `${item.path} is as stored`);
            }
          }
          assert.deepEqual(response.body, expectedRender(view.fields, view.blockedFlag, stored, true));
        });

        test(`${FULL_ID} without full-details: unmarked leaves null, basic leaves as stored`, async () => {
          const stored = storedById(view, FULL_ID);
          const response = await app().get(`${view.path}/${FULL_ID}`, CALLER);
          assert.equal(response.status, 200, response.text);
          let hidden = 0;
          let basic = 0;
          for (const item of visit(view.fields, response.body)) {
            const value = readPath(stored, item.path);
            if (item.kind === 'link') {
              assert.ok(!item.present, `${item.path} is absent when nothing is linked`);
            } else if (item.visibility === 'full') {
              hidden++;
              if (item.kind === 'list') assert.deepEqual(item.value, [], `${item.path} is hidden as []`);
              else {
                assert.ok(item.present, `${item.path} is present`);
                assert.equal(item.value, null, `${item.path} is hidden as null`);
              }
            } else {
              basic++;
              if (item.kind === 'list') assert.deepEqual(item.value, ((value as unknown[]) ?? []).map(withoutNulls), `${item.path} is as stored`);
              else if (value == null) assert.ok(!item.present, `${item.path} is absent: nothing is recorded`);
              else assert.deepEqual(item.value, value, `${item.path} is as stored`);
            }
          }
          assert.ok(hidden > 0 && basic > 0, 'the view has both restricted and basic fields');
          assert.deepEqual(response.body, expectedRender(view.fields, view.blockedFlag, stored, false));
        });

        test('every mock record renders as its description says, with and without full-details', async () => {
          for (const v1 of recordsOf(view)) {
            const stored = storedFor(view, v1);
            for (const [audience, headers] of [
              ['full-details', FULL_DETAILS],
              ['basic', CALLER],
            ] as const) {
              const response = await app().get(`${view.path}/${v1.id}`, headers);
              assert.equal(response.status, 200, `${v1.id}: ${response.text}`);
              assert.equal(response.headers.get('cache-control'), 'no-store');
              assert.deepEqual(response.body, expectedRender(view.fields, view.blockedFlag, stored, audience === 'full-details'), `${v1.id} (${audience})`);
            }
          }
        });

        test('a blocked record shows only its id and the blocked flag, its links left out', async () => {
          const blocked = recordsOf(view).filter((v1) => isBlocked(v1, view.record.blockedFlag));
          assert.ok(blocked.length > 0, 'the mock has a blocked record of this type');
          for (const v1 of blocked) {
            for (const headers of [FULL_DETAILS, CALLER]) {
              const response = await app().get(`${view.path}/${v1.id}`, headers);
              assert.equal(response.status, 200, response.text);
              assertOnlyIdAndFlag(view, response.body, v1.id as number, `blocked ${v1.id}`);
            }
          }
        });

        test('a lookup ignores leading zeros in the id', async () => {
          const plain = await app().get(`${view.path}/${FULL_ID}`, FULL_DETAILS);
          const padded = await app().get(`${view.path}/000${FULL_ID}`, FULL_DETAILS);
          assert.equal(padded.status, 200);
          assert.deepEqual(padded.body, plain.body);
        });

        if (linked) {
          test('linked registrations are embedded, each redacted by its own blocked flag', async () => {
            let shownLinks = 0;
            let blockedLinks = 0;
            for (const v1 of recordsOf(view)) {
              if (isBlocked(v1, view.blockedFlag)) continue;
              for (const key of ['previousRegistration', 'nextRegistration']) {
                const target = v1[key];
                if (!isObject(target)) continue;
                for (const [audience, headers] of [
                  ['full-details', FULL_DETAILS],
                  ['basic', CALLER],
                ] as const) {
                  const response = await app().get(`${view.path}/${v1.id}`, headers);
                  const link = (response.body as Json)[key];
                  const where = `${v1.id} ${key} (${audience})`;
                  assert.ok(isObject(link), `${where} is embedded`);
                  assert.equal(link.id, target.id, `${where} is ${String(target.id)}`);
                  if (isBlocked(target, view.blockedFlag)) {
                    blockedLinks++;
                    assertOnlyIdAndFlag(view, link, target.id as number, where);
                  } else {
                    shownLinks++;
                    assert.equal(readPath(link, view.blockedFlag), false, `${where} is not blocked`);
                    assert.deepEqual(link, expectedRender(view.fields, view.blockedFlag, target, audience === 'full-details'), where);
                  }
                }
              }
            }
            assert.ok(shownLinks > 0, 'the mock links records of this type');
            if (view.record.name === 'birth') assert.ok(blockedLinks > 0, 'the mock links a blocked birth');
          });
        }
      });
    }

    describe('v0 birth is a projection of v1', () => {
      const [v0] = views.filter((view) => view.version === 'v0');
      const v1 = views.find((view) => view.version === 'v1' && view.record === v0.record) as ViewDescription;

      const both = async (id: number, headers: Record<string, string> = FULL_DETAILS) => {
        const [old, current] = await Promise.all([app().get(`${v0.path}/${id}`, headers), app().get(`${v1.path}/${id}`, headers)]);
        assert.equal(old.status, 200, old.text);
        assert.equal(current.status, 200, current.text);
        return { old: old.body as Json, current: current.body as Json };
      };

      const nameOf = (name: unknown) => name as { givenName?: string; surname?: string; fullName?: string; qualifier?: string };
      const assertName = (name: unknown, forenames: unknown, surname: unknown, where: string) => {
        const n = nameOf(name);
        assert.equal(n.givenName, forenames, `${where}.givenName`);
        assert.equal(n.surname, surname, `${where}.surname`);
        assert.equal(n.fullName, `${String(forenames)} ${String(surname)}`, `${where}.fullName`);
        assert.equal(typeof n.qualifier, 'string', `${where}.qualifier`);
      };

      test(`${FULL_ID}: every v0 field comes from its v1 source`, async () => {
        const { old, current } = await both(FULL_ID);
        const at = (record: Json, path: string) => readPath(record, path);
        const pairs: Array<[string, string]> = [
          ['location.registrationDistrict', 'registrar.district'],
          ['location.subDistrict', 'registrar.subdistrict'],
          ['location.administrativeArea', 'registrar.administrativeArea'],
          ['subjects.child.dateOfBirth', 'child.dateOfBirth'],
          ['subjects.child.sex', 'child.sex'],
          ['subjects.child.birthplace', 'child.birthplace'],
          ['subjects.father.birthplace', 'father.birthplace'],
          ['subjects.father.occupation', 'father.occupation'],
          ['subjects.mother.birthplace', 'mother.birthplace'],
          ['subjects.mother.occupation', 'mother.occupation'],
          ['subjects.mother.maidenSurname', 'mother.maidenSurname'],
          ['subjects.mother.marriageSurname', 'mother.marriageSurname'],
          ['subjects.mother.usualAddress', 'mother.address'],
          ['subjects.informant.usualAddress', 'informant1.address'],
          ['systemNumber', 'id'],
          ['id', 'id'],
          ['date', 'date'],
          ['registrarSignature', 'registrar.signature'],
          ['status.potentiallyFictitiousBirth', 'status.potentiallyFictitious'],
          ['status.correction', 'status.correction'],
          ['status.cancelled', 'status.cancelled'],
          ['status.blockedRegistration', 'status.blocked'],
          ['status.marginalNote', 'status.marginalNote'],
          ['status.reRegistered', 'status.reregistration'],
        ];
        for (const [oldPath, currentPath] of pairs) {
          assert.notEqual(at(current, currentPath), undefined, `v1 ${currentPath} is filled`);
          assert.deepEqual(at(old, oldPath), at(current, currentPath), `v0 ${oldPath} = v1 ${currentPath}`);
        }
        assert.equal(
          at(old, 'location.name'),
          ['registrar.district', 'registrar.subdistrict', 'registrar.administrativeArea'].map((p) => at(current, p)).join(', '),
        );
        assert.equal(typeof at(old, 'location.nameQualifier'), 'string');
        assertName(at(old, 'subjects.child.name'), at(current, 'child.forenames'), at(current, 'child.surname'), 'child.name');
        assertName(at(old, 'subjects.child.originalName'), at(current, 'child.originalForenames'), at(current, 'child.surname'), 'child.originalName');
        assertName(at(old, 'subjects.father.name'), at(current, 'father.forenames'), at(current, 'father.surname'), 'father.name');
        assertName(at(old, 'subjects.mother.name'), at(current, 'mother.forenames'), at(current, 'mother.surname'), 'mother.name');
        assertName(at(old, 'subjects.informant.name'), at(current, 'informant1.forenames'), at(current, 'informant1.surname'), 'informant.name');
        for (const leaf of ['qualification', 'signature']) {
          assert.equal(
            at(old, `subjects.informant.${leaf}`),
            `${String(at(current, `informant1.${leaf}`))} ,${String(at(current, `informant2.${leaf}`))}`,
            `informant.${leaf} joins both informants`,
          );
        }
        assert.deepEqual(old.previousRegistration, {}, 'nothing was replaced');
      });

      test(`${FULL_ID} without full-details: v0 hides what v1 hides`, async () => {
        const { old } = await both(FULL_ID, CALLER);
        const n = nameOf(readPath(old, 'subjects.child.originalName'));
        assert.deepEqual(n, { givenName: null, surname: null, fullName: null, qualifier: null });
        assert.equal(readPath(old, 'subjects.mother.usualAddress'), null);
        assert.equal(readPath(old, 'registrarSignature'), null);
        assert.equal(typeof readPath(old, 'subjects.child.name.givenName'), 'string');
      });

      test('a re-registered birth shows the date and system number of the registration it replaced', async () => {
        const replacing = recordsOf(v1).filter((record) => isObject(record.previousRegistration) && !isBlocked(record, v1.blockedFlag));
        assert.ok(replacing.length > 0, 'the mock has a re-registered birth');
        let blockedPredecessors = 0;
        for (const record of replacing) {
          const previous = record.previousRegistration as Json;
          for (const headers of [FULL_DETAILS, CALLER]) {
            const { old, current } = await both(record.id as number, headers);
            assert.equal(readPath(old, 'previousRegistration.systemNumber'), previous.id, `${record.id} replaced ${String(previous.id)}`);
            assert.equal(readPath(old, 'status.reRegistered'), readPath(current, 'status.reregistration'));
            if (isBlocked(previous, v1.blockedFlag)) {
              blockedPredecessors++;
              // As in v1, a blocked linked registration shows only its id: v0 leaves its date out.
              assert.equal(readPath(current, 'previousRegistration.date'), null);
              assert.ok(readPath(old, 'previousRegistration.date') == null, `${record.id}: the blocked predecessor's date is hidden`);
            } else {
              assert.equal(readPath(old, 'previousRegistration.date'), previous.date, `${record.id}: date of the registration replaced`);
              assert.equal(readPath(old, 'previousRegistration.date'), readPath(current, 'previousRegistration.date'));
            }
          }
        }
        assert.ok(blockedPredecessors > 0, 'the mock re-registers a blocked birth');
      });
    });

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
        const unsearchable = (view: ViewDescription, v1: Json) => closeMatchOnlyScenarios.some((s) => s.type === view.record.name && s.id === v1.id);
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

      test('forenames match as whole leading words; the surname matches in full', async () => {
        for (const view of views) {
          const v1 = storedV1(view, FULL_ID);
          const [party] = view.record.search.parties;
          const surname = readPath(v1, party.surname) as string;
          const forenames = readPath(v1, party.forenames) as string;
          const date = readPath(v1, party.dates[0]) as string;
          const words = forenames.split(' ');
          assert.ok(words.length >= 2 && words.every((w) => w.length >= 3), `${view.path} ${FULL_ID} has several forenames`);
          const finds = async (s: string, f: string) => (await search(app(), view, searchParams(view, s, f, date))).ids.includes(FULL_ID);

          assert.ok(await finds(surname, forenames), 'all forenames');
          assert.ok(await finds(surname, words[0]), 'the first forename');
          assert.ok(await finds(surname.toUpperCase(), forenames.toLowerCase()), 'case is ignored');
          assert.ok(await finds(`  ${surname} `, ` ${words.join('   ')} `), 'extra spaces are ignored');
          assert.ok(!(await finds(surname, words[0].slice(0, -1))), 'part of a word is not a word');
          assert.ok(!(await finds(surname, `${words[0]}${words[1]}`)), 'words run together are another word');
          assert.ok(!(await finds(surname, words[1])), 'a later forename alone is not a leading word');
          assert.ok(!(await finds(surname, `${words[0]} ${words[1].slice(0, -1)}`)), 'the last word given must be whole too');
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
        assert.ok(accented.some((s) => /[øØ]/.test(s.search.surname + s.search.forenames)), 'the mock has an ø');
        for (const scenario of accented) {
          for (const view of viewsOf(scenario.type)) {
            const plain = { ...scenario.search, surname: stripAccents(scenario.search.surname), forenames: stripAccents(scenario.search.forenames) };
            assert.match(plain.surname + plain.forenames, /^[\x00-\x7f]*$/);
            const { ids } = await search(app(), view, scenarioParams(view, { ...scenario, search: plain }));
            assert.ok(ids.includes(scenario.id), `${scenario.type} ${scenario.id} found by ${plain.forenames} ${plain.surname}`);
          }
        }
        for (const view of views) {
          const v1 = storedV1(view, FULL_ID);
          const [party] = view.record.search.parties;
          const accent = (name: string) => name.replace(/[aeiouAEIOU]/, (vowel) => `${vowel}\u0301`).normalize('NFC');
          const params = searchParams(view, accent(readPath(v1, party.surname) as string), accent(readPath(v1, party.forenames) as string), readPath(v1, party.dates[0]) as string);
          assert.ok((await search(app(), view, params)).ids.includes(FULL_ID), `${view.path}: accents added to a plain name`);
        }
      });

      test('hyphens count as spaces', async () => {
        const hyphenated = withChar(/-/);
        assert.ok(hyphenated.length > 0, 'the mock has hyphenated names');
        for (const scenario of hyphenated) {
          for (const view of viewsOf(scenario.type)) {
            const spaced = { ...scenario.search, surname: scenario.search.surname.replace(/-/g, ' '), forenames: scenario.search.forenames.replace(/-/g, ' ') };
            let { ids } = await search(app(), view, scenarioParams(view, { ...scenario, search: spaced }));
            assert.ok(ids.includes(scenario.id), `${scenario.id} found with spaces for hyphens`);
            const [firstWord] = scenario.search.forenames.split(/[\s-]/);
            ({ ids } = await search(app(), view, scenarioParams(view, { ...scenario, search: { ...scenario.search, forenames: firstWord } })));
            assert.ok(ids.includes(scenario.id), `${scenario.id} found by the first part of a hyphenated forename`);
            if (scenario.search.surname.includes('-')) {
              const [firstPart] = scenario.search.surname.split('-');
              ({ ids } = await search(app(), view, scenarioParams(view, { ...scenario, search: { ...scenario.search, surname: firstPart } })));
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

      test('a death whose dates of birth and death are equal is found once by that date', async () => {
        const [view] = viewsOf('death');
        const [party] = view.record.search.parties;
        const sameDay = recordsOf(view).filter((v1) => {
          const dates = party.dates.map((path) => readPath(v1, path));
          return typeof dates[0] === 'string' && dates.every((date) => date === dates[0]);
        });
        assert.ok(sameDay.length > 0, 'the mock has a death on the day of birth');
        for (const v1 of sameDay) {
          const params = searchParams(view, readPath(v1, party.surname) as string, readPath(v1, party.forenames) as string, readPath(v1, party.dates[0]) as string);
          const { ids } = await search(app(), view, params);
          assert.deepEqual(ids.filter((id) => id === v1.id), [v1.id], `${v1.id} appears once`);
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
            const params = searchParams(view, readPath(v1, party.surname) as string, readPath(v1, party.forenames) as string, date);
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
              const { ids, records, truncated } = await search(app(), view, scenarioParams(view, group.example), headers);
              assert.deepEqual(ids, group.ids, `${view.path} ${JSON.stringify(group.example.search)}`);
              assert.equal(truncated, null, 'not truncated under the default limit');
              records.forEach((record, i) =>
                assert.deepEqual(record, expectedRender(view.fields, view.blockedFlag, storedById(view, ids[i]), audience === 'full-details')),
              );
            }
          }
        }
      });

      test('a search that matches nothing answers []', async () => {
        for (const view of views) {
          const { records, truncated } = await search(app(), view, searchParams(view, 'Nobodyatall', 'Nemo', '1901-01-01'));
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
