/**
 * `npm run wallet:pickup` (scripts/wallet-pickup.ts) against the mock on a real socket, in every
 * format, with and without a transaction code, and its failure when no offer can be made: the
 * README's walk-through runs as it is shown.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { filledStore, startApp, testConfig } from '../helper.ts';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../scripts/wallet-pickup.ts', import.meta.url));

// Asynchronously: the app answering the script runs in this process.
const pickUp = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', SCRIPT, ...args]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

test('the script picks up record 123456789 in every format and verifies it', async (t) => {
  const app = await startApp(t, await filledStore(t, 'memory'), testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
  for (const [format, extra] of [
    ['dc+sd-jwt', []],
    ['mso_mdoc', ['--tx-code']],
    ['jwt_vc_json', []],
  ] as const) {
    const { code, stdout, stderr } = await pickUp(['--url', app.url, '--format', format, ...extra]);
    assert.equal(code, 0, `${format}: ${stderr}`);
    assert.equal(stderr, '');
    const lines = stdout.trim().split('\n');
    assert.deepEqual(
      lines.map((line) => line.split(/\s+/)[1]),
      ['offer', 'metadata', 'token', 'nonce', 'proof', 'credential', 'verified', 'accepted'],
      stdout,
    );
    assert.match(stdout, new RegExp(`configuration birth_\\w+ \\(${format.replace('+', '\\+')}\\)`));
    assert.match(stdout, /^7 verified +birth from \S+, stands, bound to the wallet's key, .*claims: .*child/m);
    // Claim names, never the record's values.
    assert.doesNotMatch(stdout, /Ashworth|Eleanor/);
  }
});

test('the script names the step that failed and exits 1', async (t) => {
  const app = await startApp(t, await filledStore(t, 'memory'), testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
  const unknown = await pickUp(['--url', app.url, '--id', '999999999']);
  assert.equal(unknown.code, 1);
  assert.equal(unknown.stdout, '');
  assert.match(unknown.stderr, /^failed at offer: HTTP 404 /);

  const nobody = await pickUp(['--url', 'http://127.0.0.1:9']);
  assert.equal(nobody.code, 1);
  assert.match(nobody.stderr, /^failed at offer: cannot reach .* is the service running \(npm start\)\?/);
});
