/**
 * Every described record type has what serving it needs beyond its description: a migration that
 * creates its tables, mock scenarios (one of them the record with every field filled), and records
 * that give search keys and close-match keys. A type missing one fails here, named with what it misses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { suggestionKeys } from '../../src/match/keys.ts';
import { FULL_ID, type TypeScenarios, mockRecords, scenariosOf } from '../../src/mock/dataset.ts';
import type { RecordDescription } from '../../src/records/define.ts';
import { records } from '../../src/records/index.ts';
import { searchKeys } from '../../src/records/search-keys.ts';
import { type Migration, migrations } from '../../src/store/migrations.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { adoption } from '../fixtures/adoption/description.ts';
import { adoptionMigration } from '../fixtures/adoption/migration.ts';
import { adoptionScenarios } from '../fixtures/adoption/scenarios.ts';

interface Types {
  readonly descriptions: readonly RecordDescription[];
  readonly migrations: readonly Migration[];
  readonly scenarios?: readonly TypeScenarios[];
}

/** What each type misses, one line each: `<type>: <what>`. */
function missing({ descriptions, migrations: applied, scenarios = [] }: Types): string[] {
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
    for (const record of dataset[name] ?? []) {
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
    assert.deepEqual(missing({ descriptions: [...records, adoption], migrations: [...migrations, adoptionMigration], scenarios: [adoptionScenarios] }), []);
  });

  test('a type without a migration is named with the tables it lacks', () => {
    assert.deepEqual(missing({ descriptions: [adoption], migrations, scenarios: [adoptionScenarios] }), [
      'adoption: no migration creates its table adoption_registration (src/store/schema/, listed in migrations.ts)',
      'adoption: no migration creates its table adoption_search_key (src/store/schema/, listed in migrations.ts)',
      'adoption: no migration creates its table adoption_suggestion_key (src/store/schema/, listed in migrations.ts)',
    ]);
  });

  test('a type without mock scenarios, or without its fully filled record, is named', () => {
    assert.deepEqual(missing({ descriptions: [adoption], migrations: [adoptionMigration] }), [
      'adoption: no mock scenarios (a scenario file beside its description, or records in src/mock/dataset.ts)',
    ]);
    const withoutFull = { ...adoptionScenarios, scenarios: adoptionScenarios.scenarios.filter((s) => s.id !== FULL_ID) };
    assert.deepEqual(missing({ descriptions: [adoption], migrations: [adoptionMigration], scenarios: [withoutFull] }), [
      `adoption: no mock scenario ${FULL_ID}, the record with every field filled`,
    ]);
  });

  test('a type whose records give no search keys is named', () => {
    const unfindable = { ...adoptionScenarios, scenarios: adoptionScenarios.scenarios.map((s) => ({ ...s, record: { ...s.record, child: { surname: '' } } })) };
    assert.deepEqual(missing({ descriptions: [adoption], migrations: [adoptionMigration], scenarios: [unfindable] }), [
      'adoption: mock record 123456789 gives no search keys: its parties\' surnames or dates are empty',
      'adoption: mock record 999999020 gives no search keys: its parties\' surnames or dates are empty',
    ]);
  });
});
