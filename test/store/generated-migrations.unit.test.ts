/**
 * What SQL must know of the code is written from it (src/store/generated-migrations.ts): the
 * migrations written hold what the code asks for today, so a change to REVOKING_REASONS or a type
 * without tables fails here until `npm run regenerate` writes the migration; and a file written is
 * read back as the migration it was made from.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { migrationFileText, migrationsToWrite, revokingFunctionSql } from '../../src/store/generated-migrations.ts';
import { loadMigrations, readMigrations, splitStatements } from '../../src/store/migrations.ts';
import { recordTablesSql } from '../../src/store/record-tables.ts';
import { REVOKING_REASONS } from '../../src/model/credentials.ts';
import { builtInTypes } from '../record-types.ts';

const migrations = await loadMigrations();
const names = builtInTypes.map((type) => type.name);

test('the migrations written are those the code asks for: run npm run regenerate if not', () => {
  assert.deepEqual(
    migrationsToWrite(migrations, names).map((m) => m.name),
    [],
  );
  const latest = [...migrations].reverse().find((m) => m.sql.includes('FUNCTION credential_status_revoke()'));
  assert.equal(latest?.sql, revokingFunctionSql(REVOKING_REASONS));
  for (const reason of REVOKING_REASONS) assert.ok(latest.sql.includes(`'${reason}'`));
});

test('a reason added to or taken from the list asks for a new migration naming the list as it is', () => {
  for (const reasons of [[...REVOKING_REASONS, 'marginal-note'], REVOKING_REASONS.slice(1)]) {
    const [wanted, ...more] = migrationsToWrite(migrations, names, reasons);
    assert.deepEqual(more, []);
    assert.equal(wanted.stem, 'credential-revoking-reasons');
    assert.equal(wanted.sql, revokingFunctionSql(reasons));
    assert.match(wanted.sql, new RegExp(`IN \\(${reasons.map((r) => `'${r}'`).join(', ')}\\)`));
    // Once written, nothing more is asked for.
    assert.deepEqual(
      migrationsToWrite([...migrations, { version: 99, name: wanted.name, sql: wanted.sql }], names, reasons),
      [],
    );
  }
  assert.throws(() => revokingFunctionSql(["x'); DROP TABLE credential_status; --"]), /a revoking reason is a word/);
});

test("a type that no migration creates tables for is asked its tables' migration, from recordTablesSql", () => {
  const [wanted, ...more] = migrationsToWrite(migrations, [...names, 'adoption']);
  assert.deepEqual(more, []);
  assert.deepEqual(
    [wanted.stem, wanted.name, wanted.sql],
    ['adoption-tables', 'adoption tables', recordTablesSql('adoption')],
  );
  assert.deepEqual(
    splitStatements(wanted.sql).map(
      (statement) => /^CREATE (TABLE|INDEX) (\w+)/m.exec(statement.replace(/^--.*\n/gm, ''))?.[2],
    ),
    [
      'adoption_registration',
      'adoption_search_key',
      'adoption_search_key_id_keys',
      'adoption_suggestion_key',
      'adoption_name_count',
    ],
  );
  assert.throws(() => recordTablesSql('Adoption; DROP'), /not a lower-case SQL name/);
});

test('a migration file written is read back as the migration it was made from, its text as it was', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'lev-generated-'));
  try {
    writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
    const odd = {
      stem: 'odd',
      name: "a name's quote",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: text a generated migration must hold as it is
      about: 'Text with `backticks`, ${braces} and \\ backslashes.',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the same, in its SQL
      sql: 'SELECT `${x}` \\ $$;',
    };
    writeFileSync(join(folder, 'v1-odd.ts'), migrationFileText(1, odd));
    const [wanted] = migrationsToWrite(migrations, [...names, 'adoption']);
    writeFileSync(join(folder, 'v2-adoption-tables.ts'), migrationFileText(2, wanted));
    const read = await readMigrations(pathToFileURL(`${folder}/`));
    assert.deepEqual(read, [
      { version: 1, name: odd.name, sql: odd.sql },
      { version: 2, name: wanted.name, sql: wanted.sql },
    ]);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
