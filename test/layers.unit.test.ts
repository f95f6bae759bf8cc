/**
 * The folders of src/ depend one way, as docs/development.md draws them: each may import only from
 * its own layer or the ones below. An import that goes back up fails here, naming the file and
 * what it imports, so a cycle between folders cannot creep in.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Bottom first. A folder's name, or a file at the top of src/. */
export const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'version.ts', 'module-folder.ts', 'digest.ts', 'when-needed.ts'],
  ['config', 'webhook-addresses.ts'],
  ['tracing'],
  ['model'],
  ['records'],
  ['render', 'match'],
  ['credentials'],
  ['generate'],
  ['store'],
  ['audit'],
  ['webhooks'],
  ['load'],
  ['mock'],
  ['backend'],
  ['auth'],
  ['http'],
  ['ui'],
  ['app.ts', 'server.ts'],
  ['commands'],
  ['cli.ts'],
];

const layerOf = (file: string): number => {
  const [first] = relative(SRC, file).split('/');
  const layer = LAYERS.findIndex((names) => names.includes(first));
  if (layer < 0) throw new Error(`src/${first} is in no layer of test/layers.unit.test.ts: add it where it belongs`);
  return layer;
};

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );

const relativeImports = (file: string): string[] =>
  [
    ...readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gm),
  ].map((m) => resolve(dirname(file), m[1] ?? m[2]));

test('no module of src/ imports from a layer above its own', () => {
  const upward = sources(SRC).flatMap((file) =>
    relativeImports(file)
      .filter((target) => target.startsWith(SRC) && layerOf(target) > layerOf(file))
      .map((target) => `src/${relative(SRC, file)} imports src/${relative(SRC, target)}`),
  );
  assert.deepEqual(upward, []);
});

test('every folder and top-level module of src/ has a layer', () => {
  for (const entry of readdirSync(SRC))
    assert.doesNotThrow(() => layerOf(join(SRC, entry, entry.endsWith('.ts') ? '' : 'x.ts')), entry);
});
