/**
 * The mock dataset served by `npm start`: invented people in invented places, each record type's
 * from its scenario file in `src/mock/scenarios/` (`<type>.ts`, one a type, the built-in types'
 * as any other's). A scenario names its record, how to find it and what it shows; its record is
 * made from the type's description (`describedRecords`), and is the same on every call.
 */
import { importFolder, soleExport, sourceFolder } from '../module-folder.ts';
import { suggestionKeys } from '../match/keys.ts';
import type { MatchKind } from '../match/vocabulary.ts';
import { searchKeys } from '../records/search-keys.ts';
import {
  type Fields,
  type RecordDescription,
  groupFields,
  isBlocked,
  isLeaf,
  isLink,
  isList,
  leavesOf,
  readPath,
} from '../records/define.ts';
import { VALUE_MAKERS } from '../generate/records.ts';
import { Random } from '../generate/random.ts';
import { fillFromDescription } from '../generate/values.ts';

type Data = { [key: string]: unknown };

/** The id of each type's record with every field filled. */
export const FULL_ID = 123456789;

export interface CloseMatch {
  readonly query: Readonly<Record<string, string>>;
  readonly matched: Readonly<Record<string, MatchKind>>;
}

/** A close-match query and what it matched, by parameter: surname, forenames, then the date named `date`. */
export const closeMatch = (
  date: string,
  query: readonly [string, string, string],
  matched: readonly [MatchKind, MatchKind, MatchKind],
): CloseMatch => ({
  query: { surname: query[0], forenames: query[1], [date]: query[2] },
  matched: { surname: matched[0], forenames: matched[1], [date]: matched[2] },
});

export interface Scenario {
  readonly id: number;
  /** The record type's name. */
  readonly type: string;
  /** What the record demonstrates, for the README table. */
  readonly shows: string;
  /** A v1 search query that finds the record; none when no exact search can, and its close match alone shows it. */
  readonly search?: Readonly<Record<string, string>>;
  /**
   * A query for `/v1/suggestions/<type>` with details slightly wrong, whose first candidate is the
   * record, and what each of its parameters matched (docs/search.md).
   */
  readonly suggestion?: CloseMatch;
  /**
   * What the record says on top of its search's names and date. A value given, null included, is
   * kept; a field left undefined is filled from the description.
   */
  readonly record?: Data;
  /**
   * The id of the registration (in the same file) this one re-registered: the two are linked as a
   * re-registration chain.
   */
  readonly replaces?: number;
}

/** A scenario that an exact search finds: the README's table of scenarios lists these. */
export type SearchableScenario = Scenario & { readonly search: Readonly<Record<string, string>> };
export const isSearchable = (scenario: Scenario): scenario is SearchableScenario => scenario.search !== undefined;

/**
 * A type's scenario file: its scenarios, one record each (id 123456789 the record with every
 * field filled); a later scenario with an earlier one's id is that record found another way.
 */
export interface TypeScenarios {
  readonly type: string;
  readonly scenarios: readonly Scenario[];
  /**
   * Where each verification parameter's value sits in a record, required ones apart, stated here
   * apart from the description so that a declaration pointing at the wrong field fails
   * (test/http/verification.test.ts).
   */
  readonly verificationSources?: {
    readonly required: Readonly<Record<string, string>>;
    readonly optional: Readonly<Record<string, string>>;
  };
}

const defined = new WeakSet<TypeScenarios>();

/**
 * Marks a scenario file's export as one, as `defineRecord` marks a description: the folder reader
 * takes only what this made. Refuses a scenario of another type, one that neither a search nor a
 * close match finds, and a record given twice (by a later scenario with an earlier one's id).
 */
export function defineScenarios<const S extends TypeScenarios>(file: S): S {
  const seen = new Set<number>();
  for (const scenario of file.scenarios) {
    const where = `scenarios of ${file.type}: ${scenario.id}`;
    if (scenario.type !== file.type) throw new Error(`${where} is of the type ${scenario.type}`);
    if (!scenario.search && !scenario.suggestion)
      throw new Error(`${where} has neither a search nor a close match that finds it`);
    if (seen.has(scenario.id) && scenario.record)
      throw new Error(`${where} is given a record twice: its first scenario gives it`);
    seen.add(scenario.id);
  }
  defined.add(file);
  return file;
}

/** Whether `value` is what defineScenarios made (not merely an object of its shape). */
export const isDefinedScenarios = (value: unknown): value is TypeScenarios =>
  typeof value === 'object' && value !== null && defined.has(value as TypeScenarios);

/** The TypeScenarios each file of a folder exports, one a file, in the order of the files' names. */
export async function readScenarioFiles(folder: URL): Promise<TypeScenarios[]> {
  return (await importFolder(folder)).map((module) =>
    soleExport(module, isDefinedScenarios, 'TypeScenarios made by defineScenarios()'),
  );
}

/** The scenario files of the types, one a type: each file in `src/mock/scenarios/`, read from the folder. */
export const loadScenarioFiles = (): Promise<TypeScenarios[]> => readScenarioFiles(sourceFolder('mock/scenarios'));

/** The scenarios of a type: those of its scenario file among `files`, in the file's order. */
export const scenariosOf = (type: string, files: readonly TypeScenarios[]): readonly Scenario[] =>
  files.filter((file) => file.type === type).flatMap((file) => file.scenarios);

const isPlain = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Overlays `patch` on `base` group by group, each key one `fields` describes: any other is a mistake in the data. */
function merge(fields: Fields, base: Data, patch: Data, path = ''): Data {
  const out: Data = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const field = fields[key];
    if (!field) throw new Error(`mock dataset: there is no field ${path}${key}`);
    const isGroup = !isLeaf(field) && !isList(field) && !isLink(field);
    out[key] =
      isGroup && isPlain(value)
        ? merge(groupFields(field), isPlain(base[key]) ? base[key] : {}, value, `${path}${key}.`)
        : value;
  }
  return out;
}

/** The records recordOf made: written whole, so what they leave out is unrecorded. */
const wholeRecords = new WeakSet<Data>();

/**
 * A record written whole for a scenario's `record`, from `layers` (later over earlier), each key
 * checked against `description`. A field no layer gives is left out, as unrecorded: it is not
 * invented (record 123456789 apart, whose every field is filled) and not stated null, so a field
 * described after the record was written is no edit of it.
 */
export function recordOf(description: RecordDescription, ...layers: Data[]): Data {
  const record = layers.reduce((out, layer) => merge(description.fields, out, layer), {});
  wholeRecords.add(record);
  return record;
}

/** Whether `overlay` gives the leaf at `path`: a value, null, or a null group holding it. */
function gives(overlay: Data | undefined, path: string): boolean {
  let value: unknown = overlay;
  for (const key of path.split('.')) {
    if (value === null) return true;
    if (!isPlain(value)) return false;
    value = value[key];
  }
  return value !== undefined;
}

/** Sets a dot path, making the groups on the way. */
function setPath(record: Data, path: string, value: unknown): void {
  const keys = path.split('.');
  let holder = record;
  for (const key of keys.slice(0, -1)) holder = (isPlain(holder[key]) ? holder[key] : (holder[key] = {})) as Data;
  holder[keys[keys.length - 1]] = value;
}

/**
 * One record a scenario: its first party named and dated as its search asks, the scenario's
 * `record` on top, and every leaf neither gives filled from the description (its values
 * `src/generate/values.ts` makes, from a stream of the type and id), unless the record was written
 * whole (recordOf), whose unrecorded fields are left out unless it is blocked; record 123456789 has
 * every leaf filled, and a list item in each list too.
 */
function describedRecords(description: RecordDescription, set: TypeScenarios): Data[] {
  const [party] = description.search.parties;
  const { dateParam } = description.search;
  const leaves = leavesOf(description.fields).map(({ path }) => path);
  const first = set.scenarios.filter((scenario, i) => set.scenarios.findIndex((s) => s.id === scenario.id) === i);
  const records = first.map((scenario) => {
    // The scenario's own values first, so the dates that follow them (a registration after the birth) are
    // made from them.
    const given = new Map<string, unknown>();
    const { surname, forenames, [dateParam]: date } = scenario.search ?? {};
    for (const [path, value] of [
      [party.surname, surname],
      [party.forenames, forenames],
      [party.dates[0], date],
    ] as const) {
      if (value !== undefined) given.set(path, value);
    }
    const named: Data = {};
    for (const [path, value] of given) setPath(named, path, value);
    const record = merge(description.fields, named, scenario.record ?? {});
    record.id = scenario.id;
    const full = scenario.id === FULL_ID;
    // A blocked record is filled too: its answer shows none of its values, and one stored without
    // a key would show it left out rather than hidden, telling what the register recorded.
    const whole = scenario.record !== undefined && wholeRecords.has(scenario.record);
    if (whole && !full && !isBlocked(record, description.blockedFlag)) return record;
    const unset = leaves.filter((path) => path !== 'id' && !given.has(path) && !gives(scenario.record, path));
    const random = Random.fromString(`lev-mock\u0000${set.type}\u0000${scenario.id}`);
    return fillFromDescription(description, record, random, VALUE_MAKERS, { paths: unset, lists: full });
  });
  return chained(description, set, records);
}

/**
 * Links a re-registration chain, oldest first. Each record embeds full copies
 * of its neighbours, and the copies point outwards only: a predecessor carries
 * its own predecessors, a successor its own successors.
 */
function chain(...records: Data[]): Data[] {
  const before = (i: number): Data | null =>
    i < 0 ? null : { ...records[i], previousRegistration: before(i - 1), nextRegistration: null };
  const after = (i: number): Data | null =>
    i >= records.length ? null : { ...records[i], previousRegistration: null, nextRegistration: after(i + 1) };
  return records.map((record, i) => ({
    ...record,
    previousRegistration: before(i - 1),
    nextRegistration: after(i + 1),
  }));
}

/**
 * The records of a scenario file with each chain its scenarios' `replaces` make linked, oldest first, in the
 * file's order.
 */
function chained(description: RecordDescription, set: TypeScenarios, records: Data[]): Data[] {
  const byId = new Map(records.map((record) => [record.id as number, record]));
  const next = new Map<number, number>();
  for (const { id, replaces } of set.scenarios) {
    if (replaces === undefined) continue;
    if (!byId.has(replaces))
      throw new Error(`mock dataset: ${set.type} ${id} replaces ${replaces}, which its scenario file does not have`);
    const { previousRegistration, nextRegistration } = description.fields;
    if (!previousRegistration || !isLink(previousRegistration) || !nextRegistration || !isLink(nextRegistration)) {
      throw new Error(
        `mock dataset: ${set.type} ${id} replaces ${replaces}, but the type has no links previousRegistration ` +
          `and nextRegistration`,
      );
    }
    next.set(replaces, id);
  }
  const replacing = new Set(next.values());
  for (const first of set.scenarios.filter((s) => next.has(s.id) && !replacing.has(s.id))) {
    const ids = [first.id];
    while (next.has(ids[ids.length - 1])) ids.push(next.get(ids[ids.length - 1])!);
    chain(...ids.map((id) => byId.get(id)!)).forEach((record, i) => byId.set(ids[i], record));
  }
  return records.map((record) => byId.get(record.id as number)!);
}

/**
 * The mock records of each type described, by type, as the v1 views store them: those its
 * scenario file among `files` makes (none without one). A fresh copy on every call.
 */
export function mockRecords(
  descriptions: readonly RecordDescription[],
  files: readonly TypeScenarios[],
): Record<string, object[]> {
  const out: Record<string, object[]> = {};
  for (const description of descriptions) {
    const set = files.find((file) => file.type === description.name);
    out[description.name] = set ? describedRecords(description, set) : [];
  }
  return structuredClone(out);
}

/**
 * What the mock could not serve of each type: no scenarios, no record with every field filled
 * (FULL_ID) or one that leaves a field unfilled, or a record no search or close match can find.
 * The mock refuses to start on any (backend/open.ts), so a type added without them fails at once.
 */
export function mockProblems(
  descriptions: readonly RecordDescription[],
  files: readonly TypeScenarios[],
  dataset = mockRecords(descriptions, files),
): { type: string; problem: string }[] {
  return descriptions.flatMap((description) => {
    const { name } = description;
    const records = (dataset[name] ?? []) as Data[];
    const problems: string[] = [];
    if (!records.length) problems.push('no mock scenarios (a scenario file in src/mock/scenarios/, docs/mock-data.md)');
    else if (!records.some((record) => record.id === FULL_ID))
      problems.push(`no mock scenario ${FULL_ID}, the record with every field filled`);
    else {
      const full = records.find((record) => record.id === FULL_ID);
      const unfilled = leavesOf(description.fields).find(({ path }) => readPath(full, path) == null);
      if (unfilled)
        problems.push(`mock record ${FULL_ID}, the record with every field filled, leaves ${unfilled.path} unrecorded`);
    }
    for (const record of records) {
      const keys = searchKeys(description, record);
      if (!keys.length)
        problems.push(
          `mock record ${record.id as number} gives no search keys: its parties' surnames or dates are empty`,
        );
      else if (!suggestionKeys(keys).length)
        problems.push(`mock record ${record.id as number} gives no close-match keys`);
    }
    return problems.map((problem) => ({ type: name, problem }));
  });
}
