/**
 * Every record type's tables are alike: the built-in types', written by hand over several frozen
 * migrations, and a new type's, from recordTablesSql (src/store/record-tables.ts) as `npm run
 * regenerate` writes them, have birth's columns, indexes and constraints, names aside. So the
 * template for a new type cannot fall behind a migration that changed the others (a covering index, a
 * column's type), nor one type's tables differ from another's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadMigrations, migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { fixtureMigration } from '../fixtures/testfixture/migration.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';
import { builtInTypes } from '../record-types.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

test("every type's tables have birth's columns, indexes and constraints, the template's for a new type too", {
  skip,
}, async (t) => {
  let close: (() => Promise<void>) | undefined;
  const { schema } = await emptySchema(t, () => close?.());
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000 });
  close = () => driver.close();
  await migrate(driver, {}, [...(await loadMigrations()), fixtureMigration]);

  /** What a type's tables are, each line with the type's name and the schema's replaced, sorted. */
  const shape = async (type: string): Promise<string[]> => {
    const tables = Object.values(tableNames(type));
    const rows = await driver.query<{ line: string }>(
      `SELECT concat_ws(' ', 'column', table_name, ordinal_position, column_name, data_type, is_nullable, ` +
        `collation_name, column_default) AS line
         FROM information_schema.columns WHERE table_schema = $1 AND table_name = ANY($2)
       UNION ALL
       SELECT concat_ws(' ', 'index', tablename, indexname, indexdef) FROM pg_indexes WHERE schemaname = $1 ` +
        `AND tablename = ANY($2)
       UNION ALL
       SELECT concat_ws(' ', 'constraint', c.relname, k.conname, pg_get_constraintdef(k.oid))
         FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relname = ANY($2)`,
      [schema, tables],
    );
    return rows.map(({ line }) => line.replaceAll(`${schema}.`, '').replaceAll(`${type}_`, '<type>_')).sort();
  };

  const birth = await shape('birth');
  // Four tables, their keys, the search keys' covering index on id and their reference to the records.
  assert.equal(birth.filter((line) => line.startsWith('column ')).length, 3 + 4 + 2 + 3);
  assert.ok(
    birth.some((line) =>
      /^index <type>_search_key <type>_search_key_id_keys .*INCLUDE \(date, surname, forenames\)/.test(line),
    ),
    birth.join('\n'),
  );
  assert.ok(
    birth.some((line) =>
      /^constraint <type>_search_key .*REFERENCES <type>_registration\(id\) ON DELETE CASCADE/.test(line),
    ),
  );
  for (const type of [...builtInTypes.map((d) => d.name).filter((name) => name !== 'birth'), 'testfixture']) {
    assert.deepEqual(await shape(type), birth, `${type}'s tables are birth's`);
  }
});
