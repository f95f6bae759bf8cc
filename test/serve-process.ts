/**
 * `lev-api serve` as a process of its own, as operators start it, with `env` only (and a loopback
 * address on a port of its own); its address once it says it listens. Stopped when the test ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/lev-api.js', import.meta.url));

/** `args`: Node's arguments, by default the command's own script and `serve`. */
export async function serveProcess(
  t: Pick<TestContext, 'after'>,
  env: Record<string, string>,
  args: string[] = [BIN, 'serve'],
): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', MOCK_EVENT_INTERVAL_S: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });
  let output = '';
  return new Promise((listening, failed) => {
    child.stdout?.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      const found = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found) listening(found[1]);
    });
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.once('exit', (code) => failed(new Error(`lev-api serve exited with ${code}: ${output}`)));
  });
}
