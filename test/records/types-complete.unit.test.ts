/**
 * Every described record type has what serving it needs beyond its description: a migration that
 * creates its tables, mock scenarios (one of them the record with every field filled), and records
 * that give search keys and close-match keys; and what the tests of every type read from its mock
 * records (test/http/record-routes-*.test.ts, test/http/verification.test.ts): a blocked record
 * 999999020, a re-registration chain 999999040 → 999999041, several forenames on the record with
 * every field filled, and, for a type with a scenario file, where each verification parameter's
 * value sits in a record. A type missing one fails here, named with what it misses.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FULL_ID, type TypeScenarios, mockProblems, mockRecords, scenariosOf } from '../../src/mock/dataset.ts';
import { type RecordDescription, isBlocked, readPath } from '../../src/records/define.ts';
import { type Migration, loadMigrations } from '../../src/store/migrations.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { testfixture } from '../fixtures/testfixture/description.ts';
import { fixtureMigration } from '../fixtures/testfixture/migration.ts';
import { fixtureScenarios } from '../fixtures/testfixture/scenarios.ts';
import { builtInTypes as records, builtInScenarios } from '../record-types.ts';

const migrations = await loadMigrations();

/** The mock records the tests of every type read by id. */
const BLOCKED_ID = 999999020;
const CHAIN = [999999040, 999999041] as const;

interface Types {
  readonly descriptions: readonly RecordDescription[];
  readonly migrations: readonly Migration[];
  readonly scenarios?: readonly TypeScenarios[];
}

/** What each type misses, one line each: `<type>: <what>`. */
function missing({ descriptions, migrations: applied, scenarios = builtInScenarios }: Types): string[] {
  const sql = applied.map((m) => m.sql).join('\n');
  const dataset = mockRecords(descriptions, scenarios) as Record<string, Record<string, unknown>[]>;
  return descriptions.flatMap(({ name }, i) => {
    const description = descriptions[i];
    const problems: string[] = [];
    for (const table of Object.values(tableNames(name))) {
      if (!new RegExp(`CREATE TABLE (IF NOT EXISTS )?${table} \\(`).test(sql))
        problems.push(`no migration creates its table ${table} (a migration in src/store/schema/)`);
    }
    problems.push(...mockProblems([description], scenarios, dataset).map((found) => found.problem));
    const own = scenariosOf(name, scenarios);
    const file = scenarios.find((set) => set.type === name);
    if (file && !file.verificationSources)
      problems.push(
        "its scenario file gives no verificationSources: where each verification parameter's value sits in a record",
      );
    const records = dataset[name] ?? [];
    const byId = (id: number) => records.find((record) => record.id === id);
    const full = byId(FULL_ID);
    const [party] = description.search.parties;
    const forenames = full ? String(readPath(full, party.forenames) ?? '').split(' ') : [];
    if (full && !(forenames.length >= 2 && forenames.every((word) => word.length >= 3))) {
      problems.push(`mock record ${FULL_ID} has not several forenames of three letters or more at ${party.forenames}`);
    }
    if (own.length && !(byId(BLOCKED_ID) && isBlocked(byId(BLOCKED_ID), description.blockedFlag)))
      problems.push(`no blocked mock scenario ${BLOCKED_ID}`);
    if (own.length && readPath(byId(CHAIN[0]), 'nextRegistration.id') !== CHAIN[1]) {
      problems.push(
        `no re-registration chain: mock scenario ${CHAIN[1]} replacing ${CHAIN[0]} (\`replaces\` in a scenario file)`,
      );
    }
    return problems.map((problem) => `${name}: ${problem}`);
  });
}

describe('every described type has a migration, mock scenarios and search keys', () => {
  test('the built-in types', () => {
    assert.deepEqual(missing({ descriptions: records, migrations }), []);
  });

  test('a type described in a fixture, with its migration and its scenario file', () => {
    assert.deepEqual(
      missing({
        descriptions: [...records, testfixture],
        migrations: [...migrations, fixtureMigration],
        scenarios: [...builtInScenarios, fixtureScenarios],
      }),
      [],
    );
  });

  test('a type without a migration is named with the tables it lacks', () => {
    // The fixture under a name no migration knows, whatever types are built in.
    const unmigrated = { ...testfixture, name: 'unmigrated' };
    assert.deepEqual(
      missing({ descriptions: [unmigrated], migrations, scenarios: [{ ...fixtureScenarios, type: unmigrated.name }] }),
      [
        'unmigrated: no migration creates its table unmigrated_registration (a migration in src/store/schema/)',
        'unmigrated: no migration creates its table unmigrated_search_key (a migration in src/store/schema/)',
        'unmigrated: no migration creates its table unmigrated_suggestion_key (a migration in src/store/schema/)',
        'unmigrated: no migration creates its table unmigrated_name_count (a migration in src/store/schema/)',
      ],
    );
  });

  test('a type without what the tests of every type read is named', () => {
    const { verificationSources: _, ...withoutSources } = fixtureScenarios;
    const bare = {
      ...withoutSources,
      scenarios: fixtureScenarios.scenarios
        .filter((s) => s.id === FULL_ID)
        .map((s) => ({ ...s, search: { ...s.search, forenames: 'Rosalind' } })),
    };
    assert.deepEqual(missing({ descriptions: [testfixture], migrations: [fixtureMigration], scenarios: [bare] }), [
      "testfixture: its scenario file gives no verificationSources: where each verification parameter's " +
        'value sits in a record',
      `testfixture: mock record ${FULL_ID} has not several forenames of three letters or more at child.forenames`,
      `testfixture: no blocked mock scenario ${BLOCKED_ID}`,
      `testfixture: no re-registration chain: mock scenario ${CHAIN[1]} replacing ${CHAIN[0]} (\`replaces\` ` +
        `in a scenario file)`,
    ]);
  });

  test('a type without mock scenarios, or without its fully filled record, is named', () => {
    assert.deepEqual(missing({ descriptions: [testfixture], migrations: [fixtureMigration], scenarios: [] }), [
      'testfixture: no mock scenarios (a scenario file in src/mock/scenarios/, docs/mock-data.md)',
    ]);
    const withoutFull = { ...fixtureScenarios, scenarios: fixtureScenarios.scenarios.filter((s) => s.id !== FULL_ID) };
    assert.deepEqual(
      missing({ descriptions: [testfixture], migrations: [fixtureMigration], scenarios: [withoutFull] }),
      [`testfixture: no mock scenario ${FULL_ID}, the record with every field filled`],
    );
    const nullCourt = {
      ...fixtureScenarios,
      scenarios: fixtureScenarios.scenarios.map((s) =>
        s.id === FULL_ID ? { ...s, record: { ...s.record, court: null } } : s,
      ),
    };
    assert.deepEqual(missing({ descriptions: [testfixture], migrations: [fixtureMigration], scenarios: [nullCourt] }), [
      `testfixture: mock record ${FULL_ID}, the record with every field filled, leaves court unrecorded`,
    ]);
  });

  test('a type whose records give no search keys is named', () => {
    const unfindable = {
      ...fixtureScenarios,
      scenarios: fixtureScenarios.scenarios.map((s) => ({ ...s, record: { ...s.record, child: { surname: '' } } })),
    };
    assert.deepEqual(
      missing({ descriptions: [testfixture], migrations: [fixtureMigration], scenarios: [unfindable] }),
      fixtureScenarios.scenarios.map(
        ({ id }) => `testfixture: mock record ${id} gives no search keys: its parties' surnames or dates are empty`,
      ),
    );
  });
});
