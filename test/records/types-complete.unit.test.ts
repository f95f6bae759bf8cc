/**
 * Every described record type has what serving it needs beyond its description: a migration that
 * creates its tables, mock scenarios (one of them the record with every field filled), and records
 * that give search keys and close-match keys; and what the tests of every type read from its mock
 * records (test/http/record-routes.test.ts, test/http/verification.test.ts): a blocked record
 * 999999020, a re-registration chain 999999040 → 999999041, several forenames on the record with
 * every field filled, and, for a type with a scenario file, where each verification parameter's
 * value sits in a record. A type missing one fails here, named with what it misses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { suggestionKeys } from '../../src/match/keys.ts';
import { FULL_ID, type TypeScenarios, mockRecords, scenarioFiles, scenariosOf } from '../../src/mock/dataset.ts';
import { type RecordDescription, isBlocked, readPath } from '../../src/records/define.ts';
import { records } from '../../src/records/index.ts';
import { searchKeys } from '../../src/records/search-keys.ts';
import { type Migration, migrations } from '../../src/store/migrations.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { adoption } from '../fixtures/adoption/description.ts';
import { adoptionMigration } from '../fixtures/adoption/migration.ts';
import { adoptionScenarios } from '../fixtures/adoption/scenarios.ts';

/** The mock records the tests of every type read by id. */
const BLOCKED_ID = 999999020;
const CHAIN = [999999040, 999999041] as const;

interface Types {
  readonly descriptions: readonly RecordDescription[];
  readonly migrations: readonly Migration[];
  readonly scenarios?: readonly TypeScenarios[];
}

/** What each type misses, one line each: `<type>: <what>`. */
function missing({ descriptions, migrations: applied, scenarios = scenarioFiles }: Types): string[] {
  const sql = applied.map((m) => m.sql).join('\n');
  const dataset = mockRecords(descriptions, scenarios) as Record<string, Record<string, unknown>[]>;
  return descriptions.flatMap(({ name }, i) => {
    const description = descriptions[i];
    const problems: string[] = [];
    for (const table of Object.values(tableNames(name))) {
      if (!new RegExp(`CREATE TABLE (IF NOT EXISTS )?${table} \\(`).test(sql)) problems.push(`no migration creates its table ${table} (src/store/schema/, listed in migrations.ts)`);
    }
    const own = scenariosOf(name, scenarios);
    if (!own.length) problems.push('no mock scenarios (a scenario file beside its description, or records in src/mock/dataset.ts)');
    else if (!own.some((s) => s.id === FULL_ID)) problems.push(`no mock scenario ${FULL_ID}, the record with every field filled`);
    const file = scenarios.find((set) => set.type === name);
    if (file && !file.verificationSources) problems.push("its scenario file gives no verificationSources: where each verification parameter's value sits in a record");
    const records = dataset[name] ?? [];
    const byId = (id: number) => records.find((record) => record.id === id);
    const full = byId(FULL_ID);
    const [party] = description.search.parties;
    const forenames = full ? String(readPath(full, party.forenames) ?? '').split(' ') : [];
    if (full && !(forenames.length >= 2 && forenames.every((word) => word.length >= 3))) {
      problems.push(`mock record ${FULL_ID} has not several forenames of three letters or more at ${party.forenames}`);
    }
    if (own.length && !(byId(BLOCKED_ID) && isBlocked(byId(BLOCKED_ID), description.blockedFlag))) problems.push(`no blocked mock scenario ${BLOCKED_ID}`);
    if (own.length && readPath(byId(CHAIN[0]), 'nextRegistration.id') !== CHAIN[1]) {
      problems.push(`no re-registration chain: mock scenario ${CHAIN[1]} replacing ${CHAIN[0]} (\`replaces\` in a scenario file)`);
    }
    for (const record of records) {
      const keys = searchKeys(description, record);
      if (!keys.length) problems.push(`mock record ${record.id as number} gives no search keys: its parties' surnames or dates are empty`);
      else if (!suggestionKeys(keys).length) problems.push(`mock record ${record.id as number} gives no close-match keys`);
    }
    return problems.map((problem) => `${name}: ${problem}`);
  });
}

describe('every described type has a migration, mock scenarios and search keys', () => {
  test('the built-in types', () => {
    assert.deepEqual(missing({ descriptions: records, migrations }), []);
  });

  test('a type described in a fixture, with its migration and its scenario file', () => {
    assert.deepEqual(missing({ descriptions: [...records, adoption], migrations: [...migrations, adoptionMigration], scenarios: [...scenarioFiles, adoptionScenarios] }), []);
  });

  test('a type without a migration is named with the tables it lacks', () => {
    // The fixture under a name no migration knows, whatever types are built in.
    const unmigrated = { ...adoption, name: 'unmigrated' };
    assert.deepEqual(missing({ descriptions: [unmigrated], migrations, scenarios: [{ ...adoptionScenarios, type: unmigrated.name }] }), [
      'unmigrated: no migration creates its table unmigrated_registration (src/store/schema/, listed in migrations.ts)',
      'unmigrated: no migration creates its table unmigrated_search_key (src/store/schema/, listed in migrations.ts)',
      'unmigrated: no migration creates its table unmigrated_suggestion_key (src/store/schema/, listed in migrations.ts)',
    ]);
  });

  test('a type without what the tests of every type read is named', () => {
    const { verificationSources: _, ...withoutSources } = adoptionScenarios;
    const bare = {
      ...withoutSources,
      scenarios: adoptionScenarios.scenarios
        .filter((s) => s.id === FULL_ID)
        .map((s) => ({ ...s, search: { ...s.search, forenames: 'Rosalind' } })),
    };
    assert.deepEqual(missing({ descriptions: [adoption], migrations: [adoptionMigration], scenarios: [bare] }), [
      "adoption: its scenario file gives no verificationSources: where each verification parameter's value sits in a record",
      `adoption: mock record ${FULL_ID} has not several forenames of three letters or more at child.forenames`,
      `adoption: no blocked mock scenario ${BLOCKED_ID}`,
      `adoption: no re-registration chain: mock scenario ${CHAIN[1]} replacing ${CHAIN[0]} (\`replaces\` in a scenario file)`,
    ]);
  });

  test('a type without mock scenarios, or without its fully filled record, is named', () => {
    assert.deepEqual(missing({ descriptions: [adoption], migrations: [adoptionMigration], scenarios: [] }), [
      'adoption: no mock scenarios (a scenario file beside its description, or records in src/mock/dataset.ts)',
    ]);
    const withoutFull = { ...adoptionScenarios, scenarios: adoptionScenarios.scenarios.filter((s) => s.id !== FULL_ID) };
    assert.deepEqual(missing({ descriptions: [adoption], migrations: [adoptionMigration], scenarios: [withoutFull] }), [
      `adoption: no mock scenario ${FULL_ID}, the record with every field filled`,
    ]);
  });

  test('a type whose records give no search keys is named', () => {
    const unfindable = { ...adoptionScenarios, scenarios: adoptionScenarios.scenarios.map((s) => ({ ...s, record: { ...s.record, child: { surname: '' } } })) };
    assert.deepEqual(
      missing({ descriptions: [adoption], migrations: [adoptionMigration], scenarios: [unfindable] }),
      adoptionScenarios.scenarios.map(({ id }) => `adoption: mock record ${id} gives no search keys: its parties' surnames or dates are empty`),
    );
  });
});
