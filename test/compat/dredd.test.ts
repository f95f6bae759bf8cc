/**
 * The published interface of the existing service (lev-api-spec.yaml, Swagger
 * 2.0), checked with dredd against this service over a real socket: every
 * documented 200 response (the paths called with the spec's x-example values)
 * must satisfy the spec's headers and schemas. Dredd skips the non-2xx cases.
 *
 * Dredd rejects `format: int32`, so it reads a temporary copy without those lines.
 * Skipped when the reference folder is absent, except under CI=true (reference-folder.ts).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { filledStore, startApp } from '../helper.ts';
import { REFERENCE, referenceMissing } from './reference-folder.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SPEC = resolve(REFERENCE, 'lev-api-spec.yaml');
const DREDD = resolve(ROOT, 'node_modules/.bin/dredd');
const skip = referenceMissing(SPEC);

/** Every path of the spec with a documented 200 response. */
const DOCUMENTED_200 = [
  '/api/v0/events/birth?',
  '/api/v0/events/birth/123456789',
  '/v1/registration/birth?',
  '/v1/registration/birth/123456789',
  '/v1/registration/death?',
  '/v1/registration/death/123456789',
  '/v1/registration/marriage?',
  '/v1/registration/marriage/123456789',
  '/v1/registration/partnership?',
  '/v1/registration/partnership/123456789',
];

const HEADERS = ['X-Auth-Username: dredd', 'X-Auth-Aud: dredd-client', 'X-Auth-Roles: full-details'];

interface DreddRun {
  readonly output: string;
  readonly passed: string[];
  readonly failed: string[];
  readonly totals: { passing: number; failing: number; errors: number; skipped: number; total: number };
}

/** A copy of the spec without its `format: int32` lines, in a folder removed when the test ends. */
async function specCopy(t: Pick<TestContext, 'after'>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'lev-dredd-'));
  t.after(() => rm(folder, { recursive: true, force: true }));
  const text = await readFile(SPEC, 'utf8');
  const path = join(folder, 'lev-api-spec.yaml');
  await writeFile(
    path,
    text
      .split('\n')
      .filter((line) => !/^\s*format:\s*["']?int32["']?\s*$/.test(line))
      .join('\n'),
  );
  return path;
}

function runDredd(spec: string, url: string): Promise<DreddRun> {
  const args = [spec, url, '--no-color', ...HEADERS.flatMap((header) => ['--header', header])];
  return new Promise((done, fail) => {
    // Run from the spec's folder so no dredd.yml of the working tree is picked up.
    execFile(
      DREDD,
      args,
      { cwd: resolve(spec, '..'), timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        const complete = /complete: (\d+) passing, (\d+) failing, (\d+) errors, (\d+) skipped, (\d+) total/.exec(
          output,
        );
        if (!complete) return fail(new Error(`dredd did not finish (${error?.message ?? 'no summary'}):\n${output}`));
        const [passing, failing, errors, skipped, total] = complete.slice(1).map(Number);
        const lines = (kind: string) =>
          [...output.matchAll(new RegExp(`^${kind}: (GET \\(\\d+\\) \\S+)`, 'gm'))].map((m) => m[1]);
        done({
          output,
          passed: lines('pass'),
          failed: lines('fail'),
          totals: { passing, failing, errors, skipped, total },
        });
      },
    );
  });
}

/** `data`: a LEV_DATA-style folder to serve instead of the built-in mock. */
async function checkAgainstSpec(t: TestContext, data?: string) {
  assert.ok(existsSync(DREDD), `dredd is not installed at ${DREDD} (npm ci installs it)`);
  const app = await startApp(t, await filledStore(t, 'memory', data));
  const run = await runDredd(await specCopy(t), app.url);
  const report = `dredd said:\n${run.output}`;
  assert.deepEqual(run.failed, [], report);
  assert.equal(run.totals.failing, 0, report);
  assert.equal(run.totals.errors, 0, report);
  for (const path of DOCUMENTED_200) {
    assert.ok(
      run.passed.some((name) => name.startsWith(`GET (200) ${path}`)),
      `no passing 200 case for ${path}\n${report}`,
    );
  }
  assert.equal(run.totals.passing, DOCUMENTED_200.length, report);
}

test('the published spec holds for every documented 200 response', { skip }, async (t) => {
  await t.test('on the built-in mock dataset', async (t) => {
    await checkAgainstSpec(t);
  });

  // The spec's example searches (Joan Smith, 2008-08-08) find records only in the reference mock data.
  const mockData = resolve(REFERENCE, 'mock-data');
  await t.test('on the reference mock records', { skip: referenceMissing(mockData) }, async (t) => {
    await checkAgainstSpec(t, mockData);
  });
});
