/**
 * The recipes "a new field" and "a new record type" (README.md and docs/development.md) are true:
 * both pages give the same steps, every file and list they name exists, every command they name is
 * a script, and the fixture type (test/fixtures/adoption/) is made of exactly the files the recipe
 * has a newcomer write, each exporting what its step says.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readScenarioFiles } from '../src/mock/dataset.ts';
import { tableNames } from '../src/store/record-tables.ts';
import { adoption } from './fixtures/adoption/description.ts';
import { adoptionMigration } from './fixtures/adoption/migration.ts';
import { adoptionScenarios } from './fixtures/adoption/scenarios.ts';

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

const FIELD = { readme: recipe('README.md', /^A new field:$/m), development: recipe('docs/development.md', /^### A new field$/m) };
const TYPE = { readme: recipe('README.md', /^A new record type:$/m), development: recipe('docs/development.md', /^### A new record type$/m) };

const scripts = (file: string) => (JSON.parse(read(file)) as { scripts: Record<string, string> }).scripts;

function commandExists(command: string): boolean {
  const workspace = /^npm run (\S+) -w @lev-api\/client$/.exec(command);
  if (workspace) return workspace[1] in scripts('clients/typescript/package.json');
  if (command === 'npm test') return 'test' in scripts('package.json');
  const run = /^npm run (\S+)$/.exec(command);
  return Boolean(run && run[1] in scripts('package.json'));
}

/** A path the recipe names exists: as it is, or, with a placeholder, as its folder holding a file of that form (deaths' description). */
const pathExists = (file: string) =>
  file === 'src/records/<type>.ts' ? existsSync(join(ROOT, 'src/records/death.ts')) : existsSync(join(ROOT, file.includes('<') ? dirname(file) : file));

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

  test('the lists a new type is added to exist where the recipe says', () => {
    const lists: Record<string, RegExp> = {
      'src/records/index.ts': /export const records = \[/,
      'src/store/migrations.ts': /export const migrations: readonly Migration\[\] = \[/,
    };
    const text = TYPE.development.join('\n');
    for (const [file, list] of Object.entries(lists)) {
      assert.ok(text.includes(`\`${file}\``), `the recipe names ${file}`);
      assert.match(read(file), list);
    }
  });

  test('a new field is one file of source: its description; the rest is generated or run', () => {
    const files = namesOf(FIELD.development).flatMap((step) => step.files);
    assert.deepEqual(files, ['src/records/<type>.ts']);
  });

  test('the fixture type is exactly the files the recipe has written, each holding what its step says', () => {
    const written = namesOf(TYPE.development)
      .flatMap((step) => step.files)
      .filter((file) => file.includes('<type>'));
    assert.deepEqual(written, ['src/records/<type>.ts', 'src/store/schema/v<N>-<type>-tables.ts', 'src/mock/scenarios/<type>.ts']);
    assert.deepEqual(readdirSync(join(ROOT, 'test/fixtures/adoption')).sort(), ['description.ts', 'migration.ts', 'scenarios.ts']);
    // The description, its tables, and its scenarios with the record with every field filled.
    assert.equal(adoption.name, 'adoption');
    for (const table of Object.values(tableNames(adoption.name))) assert.match(adoptionMigration.sql, new RegExp(`CREATE TABLE ${table} \\(`));
    assert.equal(adoptionScenarios.type, adoption.name);
    assert.ok(adoptionScenarios.scenarios.some((s) => s.id === 123456789));
  });

  test('a scenario file is listed nowhere: the dataset reads each file in its folder', async () => {
    assert.match(read('src/mock/dataset.ts'), /export const scenarioFiles: readonly TypeScenarios\[\] = await readScenarioFiles\(new URL\('\.\/scenarios\/', import\.meta\.url\)\);/);
    const folder = mkdtempSync(join(tmpdir(), 'lev-scenarios-'));
    try {
      assert.deepEqual(await readScenarioFiles(pathToFileURL(`${folder}/`)), [], 'an empty folder');
      const fixture = pathToFileURL(join(ROOT, 'test/fixtures/adoption/scenarios.ts')).href;
      writeFileSync(join(folder, 'adoption.ts'), `export { adoptionScenarios } from ${JSON.stringify(fixture)};\n`);
      writeFileSync(join(folder, 'notes.md'), 'not a scenario file\n');
      assert.deepEqual(await readScenarioFiles(pathToFileURL(`${folder}/`)), [adoptionScenarios]);
      writeFileSync(join(folder, 'empty.ts'), 'export const nothing = 1;\n');
      await assert.rejects(readScenarioFiles(pathToFileURL(`${folder}/`)), /empty\.ts exports 0 TypeScenarios, not one/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
