/**
 * Migrations are found by their files (src/store/schema/v<version>-<words>.ts) and the text of each
 * is pinned in src/store/schema/checksums.json: editing one already written fails here before any
 * database refuses it, and a new one is pinned by `npm run regenerate`, which never re-pins one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { PINS_FILE, pin, readPins } from '../../scripts/migration-pins.ts';
import { checksum, readMigrations, loadMigrations } from '../../src/store/migrations.ts';

const migrations = await loadMigrations();

describe('migration files', () => {
  test('the text of every migration is the one pinned, and every migration is pinned', () => {
    const { added, refused } = pin(readPins());
    assert.deepEqual(refused, []);
    assert.deepEqual(
      added,
      [],
      `migration(s) ${added.join(', ')} not pinned yet: run npm run regenerate, and commit ${PINS_FILE}`,
    );
  });

  test(
    'a pinned migration whose text changed, or whose file went, is refused and never re-pinned; a new one ' +
      'is pinned',
    () => {
      const pins = readPins();
      const edited = migrations.map((m) => (m.version === 2 ? { ...m, sql: `${m.sql}\nDROP TABLE audit_log;` } : m));
      const editing = pin(pins, edited);
      assert.equal(editing.refused.length, 1);
      assert.match(
        editing.refused[0],
        /^migration 2 \(append-only audit trail\) is not the text pinned: a written migration is never edited/,
      );
      assert.equal(editing.pins['2'], pins['2']);
      assert.match(
        pin(pins, migrations.slice(0, -1)).refused.join('\n'),
        new RegExp(`migration ${migrations.length} is pinned but has no file`),
      );
      const next = { version: migrations.length + 1, name: 'a new one', sql: 'CREATE TABLE t (x int);' };
      const adding = pin(pins, [...migrations, next]);
      assert.deepEqual([adding.added, adding.refused], [[next.version], []]);
      assert.deepEqual(adding.pins, { ...pins, [String(next.version)]: checksum(next) });
    },
  );

  test('they are the files of src/store/schema/, versions 1 to the latest, named as they were released', () => {
    assert.deepEqual(
      migrations.map((m) => m.version),
      migrations.map((_, i) => i + 1),
    );
    assert.ok(migrations.length >= 11);
    assert.equal(migrations[0].name, 'registration tables and search keys');
    assert.equal(migrations[10].name, 'the roles a subscribed client holds, for its pushed events');
    assert.match(migrations[0].sql, /CREATE TABLE IF NOT EXISTS birth_registration \(/);
  });

  test(
    'a folder of migration files: ordered by version, named by their words or their own name; a gap, a ' +
      'version twice or a misnamed file is refused',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'lev-migrations-'));
      const url = pathToFileURL(`${folder}/`);
      const write = (file: string, text: string) => writeFileSync(join(folder, file), text);
      try {
        assert.deepEqual(await readMigrations(url), []);
        write('v2-second-one.ts', 'export const second = `CREATE TABLE b (x int);`;\n');
        write('v10-tenth.ts', "export const name = 'the tenth';\nexport const tenth = `CREATE TABLE j (x int);`;\n");
        write('v1-first.ts', 'export const first = `CREATE TABLE a (x int);`;\n');
        write('notes.md', 'not a migration\n');
        await assert.rejects(readMigrations(url), /version 3 is missing/);
        for (let version = 3; version < 10; version++)
          write(`v${version}-more.ts`, `export const sql = 'SELECT ${version}';\n`);
        const read = await readMigrations(url);
        assert.deepEqual(
          read.map((m) => m.version),
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        );
        assert.deepEqual(
          [read[1].name, read[1].sql, read[9].name],
          ['second one', 'CREATE TABLE b (x int);', 'the tenth'],
        );
        write('v10-again.ts', "export const sql = 'SELECT 10';\n");
        await assert.rejects(readMigrations(url), /two files are version 10/);
        rmSync(join(folder, 'v10-again.ts'));
        write('V11_Bad.ts', "export const sql = 'SELECT 11';\n");
        await assert.rejects(readMigrations(url), /V11_Bad\.ts is not named as a migration is: v<version>-<words>/);
        rmSync(join(folder, 'V11_Bad.ts'));
        write('v11-two-texts.ts', "export const a = 'SELECT 1';\nexport const b = 'SELECT 2';\n");
        await assert.rejects(readMigrations(url), /v11-two-texts\.ts exports 2 SQL texts/);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );
});
