/**
 * Nothing happens at import: no module of src/ awaits, or reads a folder (the record types, the
 * mock scenario files), while it is being imported. What a process serves is read once by its
 * entry point and passed in, so a module imported by another entry point (a test with a type of
 * its own, the load worker's thread) cannot serve a list of its own making. The entry points are
 * let run at their top level: server.ts under its `import.meta.url` guard, the scripts of the load's
 * thread and of the close-match thread.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Scripts run as entry points, whose top level is the program. */
const ENTRY_POINTS = ['load/load-worker.ts', 'store/suggestion-thread-worker.ts'];

/** The functions that read a folder of modules (src/module-folder.ts and those built on it). */
const FOLDER_READERS = new Set([
  'importFolder',
  'readDescriptions',
  'loadRecordTypes',
  'loadBuiltInTypes',
  'readScenarioFiles',
  'loadScenarioFiles',
]);

/** An `if` whose condition names `import.meta.url`: the guard of a module run as a script. */
const isEntryGuard = (node: ts.Node) => ts.isIfStatement(node) && node.expression.getText().includes('import.meta.url');

/** What `text` does at import that it should not: `line N: <code>` for each await or folder read outside a function. */
export function importEffects(text: string): string[] {
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) =>
    `line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().split('\n')[0]}`;
  const visit = (node: ts.Node): void => {
    // A function's body runs when it is called, and an entry point's guarded block only when run as a script.
    if (ts.isFunctionLike(node) || isEntryGuard(node)) return;
    const awaits = ts.isAwaitExpression(node) || (ts.isForOfStatement(node) && node.awaitModifier);
    if (
      awaits ||
      (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && FOLDER_READERS.has(node.expression.text))
    )
      found.push(at(node));
    // What an await awaits is told with it, once.
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

test('no module of src/ awaits or reads a folder at import', () => {
  const effects = sources(SRC)
    .filter((file) => !ENTRY_POINTS.includes(relative(SRC, file)))
    .flatMap((file) =>
      importEffects(readFileSync(file, 'utf8')).map((effect) => `src/${relative(SRC, file)} ${effect}`),
    );
  assert.deepEqual(effects, []);
});

test('a list read at import is found, and one read when called is not', () => {
  const atImport = [
    "export const records = await readDescriptions(new URL('./types/', import.meta.url));",
    'const pending = loadRecordTypes();',
    'for await (const line of lines) count++;',
  ];
  for (const text of atImport) assert.equal(importEffects(text).length, 1, text);
  const whenCalled = [
    "export const loadRecordTypes = () => readDescriptions(new URL('./types/', import.meta.url));",
    'export async function open() { return await loadRecordTypes(); }',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template literal, as a module holds it
    'if (import.meta.url === `file://${process.argv[1]}`) await serve(await loadBuiltInTypes());',
  ];
  for (const text of whenCalled) assert.deepEqual(importEffects(text), [], text);
});
