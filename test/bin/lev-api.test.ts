/**
 * Which form `bin/lev-api.js` runs: the compiled dist/ while it is at least as new as every source
 * file and the lockfile, the sources otherwise (an edited source, or a package installed since the
 * bundle was built, which now holds most packages). The bin runs in a scratch copy of the
 * project's layout whose two forms each say which they are.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside node_modules, so that the sources' form finds tsx as the project does.
const SCRATCH = join(ROOT, 'node_modules', '.cache', `lev-bin-test-${process.pid}`);

const FILES: Record<string, string> = {
  'src/cli.ts': "export const main = async (): Promise<number> => { console.log('sources'); return 0; };",
  'src/tracing/start.ts': 'export const startTracing = async (): Promise<undefined> => undefined;',
  'dist/cli.js': "export const main = async () => { console.log('dist'); return 0; };",
  'dist/tracing/start.js': 'export const startTracing = async () => undefined;',
  'package.json': '{"type":"module"}',
  'package-lock.json': '{}',
};

/** Sets a file's modification time to `seconds` after an arbitrary origin. */
const at = (path: string, seconds: number) => utimesSync(join(SCRATCH, path), 1e9 + seconds, 1e9 + seconds);

const runs = async () => (await promisify(execFile)(process.execPath, [join(SCRATCH, 'bin/lev-api.js')])).stdout.trim();

before(() => {
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(SCRATCH, path)), { recursive: true });
    writeFileSync(join(SCRATCH, path), text);
  }
  mkdirSync(join(SCRATCH, 'bin'), { recursive: true });
  copyFileSync(join(ROOT, 'bin/lev-api.js'), join(SCRATCH, 'bin/lev-api.js'));
});
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

test('dist/ runs while it is newer than the sources and the lockfile', async () => {
  for (const path of ['src/cli.ts', 'src/tracing/start.ts', 'package-lock.json']) at(path, 0);
  at('dist/cli.js', 10);
  assert.equal(await runs(), 'dist');
});

test('the sources run once one of them is newer than dist/', async () => {
  at('package-lock.json', 0);
  at('dist/cli.js', 10);
  at('src/tracing/start.ts', 20);
  assert.equal(await runs(), 'sources');
});

test('the sources run once the lockfile is newer than dist/: a package installed since the bundle', async () => {
  for (const path of ['src/cli.ts', 'src/tracing/start.ts']) at(path, 0);
  at('dist/cli.js', 10);
  at('package-lock.json', 20);
  assert.equal(await runs(), 'sources');
});
