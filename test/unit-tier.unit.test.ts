/**
 * The fast tier (`npm run test:unit`, the `*.unit.test.ts` files) needs no server, database,
 * browser or child process, so it runs in seconds in the edit-run loop. A unit file that imports
 * what would start one fails here, naming the import; such a test belongs in a plain `*.test.ts`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { unitFiles } from './unit-tier/files.ts';

const TEST = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(TEST, '..');

/** Modules whose import means a socket, a database, a browser or another process. */
const FORBIDDEN = [
  /^node:(child_process|http|https|net|tls|dgram|cluster|worker_threads)$/,
  /^(pg|pg-copy-streams|ioredis|playwright-core|undici|autocannon|oidc-provider)$/,
  /\/test\/helper\.ts$/,
  /\/test\/(auth\/(issuer|pki)|ui\/(browser|pages-process))\.ts$/,
  /\/src\/(app|server|cli)\.ts$/,
  /\/src\/store\/pg-driver\.ts$/,
  /\/src\/backend\/(open|postgres)\.ts$/,
];

/**
 * Imports FORBIDDEN names that a unit file may make all the same: `file: specifier`, each for a reason that keeps
 * the tier fast. The line-length check runs one synchronous `git ls-files` (milliseconds, nothing left running),
 * since only git knows which files are tracked.
 */
const ALLOWED = new Set(['test/line-length.unit.test.ts: node:child_process']);

const importsOf = (file: string) =>
  [
    ...readFileSync(file, 'utf8').matchAll(
      /^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|import\('([^']+)'\)/gm,
    ),
  ].map((m) => {
    const specifier = m[1] ?? m[2] ?? m[3];
    return specifier.startsWith('.') ? resolve(dirname(file), specifier) : specifier;
  });

test('the unit tier imports nothing that starts a server, a database connection, a browser or a process', () => {
  const files = unitFiles(TEST);
  assert.ok(files.length >= 10, `unit files found: ${files.length}`);
  const offences = files.flatMap((file) =>
    importsOf(file)
      .filter((specifier) => FORBIDDEN.some((pattern) => pattern.test(specifier)))
      .filter((specifier) => !ALLOWED.has(`${relative(ROOT, file)}: ${specifier}`))
      .map(
        (specifier) =>
          `${relative(ROOT, file)} imports ${specifier.startsWith('/') ? relative(ROOT, specifier) : specifier}`,
      ),
  );
  assert.deepEqual(offences, []);
});

test('the guard sees an import it must refuse', () => {
  const imports = importsOf(fileURLToPath(import.meta.url));
  assert.ok(imports.includes('node:fs'), 'its own imports are read');
  assert.ok(FORBIDDEN.some((pattern) => pattern.test(resolve(TEST, 'helper.ts'))));
  assert.ok(FORBIDDEN.some((pattern) => pattern.test('node:http')));
});
