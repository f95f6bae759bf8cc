/**
 * The recipes "a new field" and "a new record type" (README.md and docs/development.md) are true:
 * both pages give the same steps, every file they name exists, every command they name is
 * a script, a new type is added to no list, and the fixture type (test/fixtures/testfixture/) is made of
 * exactly the files the recipe has a newcomer write, each exporting what its step says.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readScenarioFiles } from '../src/mock/dataset.ts';
import { readDescriptions } from '../src/records/index.ts';
import { loadMigrations } from '../src/store/migrations.ts';
import { recordTablesSql, tableNames } from '../src/store/record-tables.ts';
import { testfixture } from './fixtures/testfixture/description.ts';
import { fixtureMigration } from './fixtures/testfixture/migration.ts';
import { fixtureScenarios } from './fixtures/testfixture/scenarios.ts';
import { builtInTypes as records } from './record-types.ts';

const migrations = await loadMigrations();

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The numbered list that follows `heading` in a Markdown page, one string a step. */
function recipe(page: string, heading: RegExp): string[] {
  const text = read(page);
  const at = text.search(heading);
  assert.ok(at >= 0, `${page} has ${heading}`);
  const steps: string[] = [];
  for (const line of text.slice(at).split('\n').slice(1)) {
    if (/^\d+\. /.test(line)) steps.push(line.replace(/^\d+\. /, ''));
    else if (steps.length && /^ {3}\S/.test(line)) steps[steps.length - 1] += ` ${line.trim()}`;
    else if (steps.length && line.trim() === '') break;
  }
  return steps;
}

/** The files (paths with a slash and an extension) and commands a step names in backticks. */
const named = (step: string) => {
  const quoted = [...step.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  return {
    files: quoted.filter((q) => /^[\w.<>-]+\/[\w/.<>-]+\.ts$/.test(q)),
    commands: quoted.filter((q) => q.startsWith('npm ')),
  };
};
const namesOf = (steps: string[]) => steps.map(named);

const FIELD = {
  readme: recipe('README.md', /^A new field:$/m),
  development: recipe('docs/development.md', /^### A new field$/m),
};
const TYPE = {
  readme: recipe('README.md', /^A new record type:$/m),
  development: recipe('docs/development.md', /^### A new record type$/m),
};

const scripts = (file: string) => (JSON.parse(read(file)) as { scripts: Record<string, string> }).scripts;

function commandExists(command: string): boolean {
  const workspace = /^npm run (\S+) -w @lev-api\/client$/.exec(command);
  if (workspace) return workspace[1] in scripts('clients/typescript/package.json');
  if (command === 'npm test') return 'test' in scripts('package.json');
  const run = /^npm run (\S+)$/.exec(command);
  return Boolean(run && run[1] in scripts('package.json'));
}

/**
 * A path the recipe names exists: as it is, or, with a placeholder, as its folder holding a file of that
 * form (deaths' description).
 */
const pathExists = (file: string) =>
  file === 'src/records/types/<type>.ts'
    ? existsSync(join(ROOT, 'src/records/types/death.ts'))
    : existsSync(join(ROOT, file.includes('<') ? dirname(file) : file));

describe('the recipes', () => {
  test('README.md and docs/development.md give the same steps, naming the same files and commands', () => {
    for (const { readme, development } of [FIELD, TYPE]) {
      assert.ok(readme.length >= 2, 'a numbered list');
      assert.deepEqual(namesOf(readme), namesOf(development));
    }
  });

  test('every file, folder and command they name exists', () => {
    for (const steps of [FIELD.development, TYPE.development]) {
      for (const { files, commands } of namesOf(steps)) {
        for (const file of files) assert.ok(pathExists(file), `${file} exists`);
        for (const command of commands) assert.ok(commandExists(command), `${command} is a script`);
      }
    }
  });

  test(
    'a new type is added to no list: its description, its ' + 'migration and its scenarios are read from their folders',
    () => {
      const text = [...TYPE.readme, ...TYPE.development].join('\n');
      for (const list of ['src/records/index.ts', 'src/store/migrations.ts', 'test/store/migrations.test.ts'])
        assert.ok(!text.includes(list), `the recipe names ${list}`);
      assert.deepEqual(
        records.map((d) => d.name).sort(),
        readdirSync(join(ROOT, 'src/records/types'))
          .map((file) => file.replace(/\.ts$/, ''))
          .sort(),
        'every file of src/records/types/ is a type served',
      );
      assert.deepEqual(
        migrations.map((m) => `v${m.version}-`),
        readdirSync(join(ROOT, 'src/store/schema'))
          .filter((file) => file.endsWith('.ts'))
          .map((file) => /^v\d+-/.exec(file)?.[0])
          .sort((a, b) => Number(a!.slice(1, -1)) - Number(b!.slice(1, -1))),
        'every file of src/store/schema/ is a migration',
      );
    },
  );

  test(
    'the types of a folder of descriptions are listed by their order, then by name, whatever their files ' +
      'are called; two of one name, or a file without one description, are refused',
    async () => {
      const folder = mkdtempSync(join(tmpdir(), 'lev-descriptions-'));
      const url = pathToFileURL(`${folder}/`);
      const define = pathToFileURL(join(ROOT, 'src/records/types/death.ts')).href;
      const fixture = pathToFileURL(join(ROOT, 'test/fixtures/testfixture/description.ts')).href;
      const defining = pathToFileURL(join(ROOT, 'src/records/define.ts')).href;
      const made = (text: string) => `import { defineRecord } from ${JSON.stringify(defining)};\n${text}`;
      try {
        // Modules as the sources are (ESM), so that they share src/records/define.ts with the test's.
        writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
        assert.deepEqual(await readDescriptions(url), []);
        writeFileSync(join(folder, 'a.ts'), `export { testfixture } from ${JSON.stringify(fixture)};\n`);
        writeFileSync(join(folder, 'b.ts'), `export { death } from ${JSON.stringify(define)};\n`);
        writeFileSync(
          join(folder, 'z.ts'),
          made(
            `import { testfixture } from ${JSON.stringify(fixture)};\nexport const alpha = defineRecord({ ` +
              `...testfixture, name: 'alpha' });\n`,
          ),
        );
        // Death declares its order; the others come after, by name.
        assert.deepEqual(
          (await readDescriptions(url)).map((d) => d.name),
          ['death', 'alpha', 'testfixture'],
        );
        writeFileSync(
          join(folder, 'c.ts'),
          made(`import { death } from ${JSON.stringify(define)};\nexport const again = defineRecord({ ...death });\n`),
        );
        await assert.rejects(readDescriptions(url), /two record descriptions are named 'death'/);
        // Another file: a module once imported is not read again.
        rmSync(join(folder, 'c.ts'));
        // An object of a description's shape that defineRecord did not make is not one.
        writeFileSync(
          join(folder, 'd.ts'),
          `import { death } from ${JSON.stringify(define)};\nexport const nothing = 1;\nexport const lookalike ` +
            `= { ...death, name: 'lookalike' };\n`,
        );
        await assert.rejects(readDescriptions(url), /d\.ts exports 0 record descriptions, not one/);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  );

  test('a new field is one file of source: its description; the rest is generated or run', () => {
    const files = namesOf(FIELD.development).flatMap((step) => step.files);
    assert.deepEqual(files, ['src/records/types/<type>.ts']);
  });

  test('the fixture type is exactly the files the recipe has written, each holding what its step says', () => {
    const written = namesOf(TYPE.development)
      .flatMap((step) => step.files)
      .filter((file) => file.includes('<type>'));
    // The migration is written by `npm run regenerate`, from recordTablesSql.
    assert.deepEqual(written, [
      'src/records/types/<type>.ts',
      'src/mock/scenarios/<type>.ts',
      'src/store/schema/v<N>-<type>-tables.ts',
    ]);
    assert.deepEqual(readdirSync(join(ROOT, 'test/fixtures/testfixture')).sort(), [
      'description.ts',
      'migration.ts',
      'scenarios.ts',
    ]);
    // The description, its tables, and its scenarios with the record with every field filled.
    assert.equal(testfixture.name, 'testfixture');
    for (const table of Object.values(tableNames(testfixture.name)))
      assert.match(fixtureMigration.sql, new RegExp(`CREATE TABLE ${table} \\(`));
    assert.equal(fixtureMigration.sql, recordTablesSql(testfixture.name));
    assert.equal(fixtureScenarios.type, testfixture.name);
    assert.ok(fixtureScenarios.scenarios.some((s) => s.id === 123456789));
  });

  test('a scenario file is listed nowhere: the dataset reads each file in its folder', async () => {
    assert.match(read('src/mock/dataset.ts'), /readScenarioFiles\(sourceFolder\('mock\/scenarios'\)\)/);
    const folder = mkdtempSync(join(tmpdir(), 'lev-scenarios-'));
    try {
      assert.deepEqual(await readScenarioFiles(pathToFileURL(`${folder}/`)), [], 'an empty folder');
      // Modules as the sources' are, so that the file below re-exports the fixture the test imported, not a
      // CommonJS copy of it.
      writeFileSync(join(folder, 'package.json'), '{ "type": "module" }\n');
      const fixture = pathToFileURL(join(ROOT, 'test/fixtures/testfixture/scenarios.ts')).href;
      writeFileSync(join(folder, 'testfixture.ts'), `export { fixtureScenarios } from ${JSON.stringify(fixture)};\n`);
      writeFileSync(join(folder, 'notes.md'), 'not a scenario file\n');
      assert.deepEqual(await readScenarioFiles(pathToFileURL(`${folder}/`)), [fixtureScenarios]);
      writeFileSync(join(folder, 'unmarked.ts'), "export const scenarios = { type: 'unmarked', scenarios: [] };\n");
      await assert.rejects(
        readScenarioFiles(pathToFileURL(`${folder}/`)),
        /unmarked\.ts exports 0 TypeScenarios made by defineScenarios\(\), not one/,
        'an object of the shape, not made by defineScenarios',
      );
      rmSync(join(folder, 'unmarked.ts'));
      writeFileSync(join(folder, 'empty.ts'), 'export const nothing = 1;\n');
      await assert.rejects(
        readScenarioFiles(pathToFileURL(`${folder}/`)),
        /empty\.ts exports 0 TypeScenarios made by defineScenarios\(\), not one/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
