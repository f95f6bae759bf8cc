/**
 * The `lev-api` command: the real bin as a child process where the process's
 * exit code is the subject, `main(argv, env)` otherwise.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/lev-api.js', import.meta.url));

/** Runs the bin to its end: its exit code and what it wrote. */
function runBin(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 60_000 }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

test('serve exits non-zero when its port is taken', async (t) => {
  const occupier = createServer();
  occupier.listen(0, '127.0.0.1');
  await once(occupier, 'listening');
  t.after(() => occupier.close());
  const { port } = occupier.address() as AddressInfo;
  const { code, stderr } = await runBin(['serve'], { PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  assert.equal(code, 1);
  assert.match(stderr, /EADDRINUSE/);
});
