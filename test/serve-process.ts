/**
 * `lev-api serve` as a process of its own, as operators start it, with `env` only (and a loopback
 * address on a port of its own); its address once it says it listens.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/lev-api.js', import.meta.url));

export interface Served {
  readonly child: ChildProcess;
  /** Its address, once it says it listens; rejected if it exits first. */
  readonly url: Promise<string>;
  /** What it has written but its info lines (a line a request at LOG_LEVEL=info): what a failure shows. */
  output(): string;
}

/** Starts the process; the caller stops it. `args`: Node's arguments, by default the bin's script and `serve`. */
export function startServe(env: Record<string, string>, args: string[] = [BIN, 'serve']): Served {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', MOCK_EVENT_INTERVAL_S: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const url = new Promise<string>((listening, failed) => {
    // Whole lines only: a chunk may end within one.
    const read = (text: string) => {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const found = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (found) listening(found[1]);
        if (line && !line.includes('"level":30')) output += `${line}\n`;
      }
    };
    child.stdout?.setEncoding('utf8').on('data', read);
    child.stderr?.setEncoding('utf8').on('data', read);
    child.once('exit', (code) => failed(new Error(`lev-api serve exited with ${code}: ${output}`)));
  });
  return { child, url, output: () => output + partial };
}

/** As startServe, stopped when the test ends; its address. */
export async function serveProcess(
  t: Pick<TestContext, 'after'>,
  env: Record<string, string>,
  args?: string[],
): Promise<string> {
  const { child, url } = startServe(env, args);
  t.after(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  });
  return url;
}
