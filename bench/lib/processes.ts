/**
 * The servers under test run as processes of their own, so that their CPU
 * time and memory can be read from /proc and are not mixed with the load
 * generator's. Every wait here is bounded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { memory } from './proc.ts';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A TCP port free on 127.0.0.1 just now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (!address || typeof address !== 'object') throw new Error('could not find a free port');
  return address.port;
}

export interface Server {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  /** Seconds from spawn until it answered /readiness. */
  readonly startSeconds: number;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `node [nodeArgs] args` in the repository with `env`, and waits (at most `timeoutS`) until GET
 * /readiness answers 200.
 */
export async function startServer(
  name: string,
  nodeArgs: string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  timeoutS: number,
  how: Pick<MeasuredHow, 'stdout'> = {},
): Promise<Server> {
  const started = performance.now();
  const stdout = how.stdout === 'stderr' ? 2 : 'inherit';
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', stdout, 'inherit'],
  });
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      exited = { code, signal };
      done();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    // The service finishes in-flight requests within 10 s, then closes its store.
    await Promise.race([exit, sleep(30_000)]);
    if (!exited) {
      child.kill('SIGKILL');
      await Promise.race([exit, sleep(5_000)]);
    }
  };
  const deadline = started + timeoutS * 1000;
  for (let attempt = 0; performance.now() < deadline && attempt < timeoutS * 10; attempt++) {
    if (exited) throw new Error(`${name} exited before it was ready (code ${exited.code}, signal ${exited.signal})`);
    try {
      const response = await fetch(`${url}/readiness`, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) {
        return { name, pid: child.pid!, url, startSeconds: (performance.now() - started) / 1000, stop };
      }
    } catch {
      // Not listening yet.
    }
    await sleep(100);
  }
  await stop();
  throw new Error(`${name} did not answer ${url}/readiness within ${timeoutS} s`);
}

/** The commands of run() and pipe() still running. */
const commands = new Set<ChildProcess>();
const tracked = (child: ChildProcess) => {
  commands.add(child);
  child.once('exit', () => commands.delete(child));
  return child;
};

/**
 * Stops the commands still running: a signal to the benchmark alone (not to its process group, as
 * Ctrl-C is) would otherwise leave a load running, and its open transaction would hold up the
 * dropping of its schema.
 */
export async function stopCommands(): Promise<void> {
  const running = [...commands];
  for (const child of running) child.kill('SIGKILL');
  await Promise.race([
    Promise.all(running.map((child) => child.exitCode === null && child.signalCode === null && once(child, 'exit'))),
    sleep(5_000),
  ]);
}

/** Runs a command to completion (bounded by `timeoutS`), its output going to ours; throws unless it exits 0. */
export async function run(args: string[], env: NodeJS.ProcessEnv, timeoutS: number): Promise<void> {
  const child = tracked(
    spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      timeout: Math.ceil(timeoutS * 1000),
      killSignal: 'SIGKILL',
    }),
  );
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`'${args.join(' ')}' failed (code ${code}, signal ${signal})`);
}

/** Another program than node (`command`), and where its standard output goes. */
export interface MeasuredHow {
  readonly command?: string;
  readonly stdout?: 'inherit' | 'stderr';
}

/**
 * `run`, and how long the command took and its peak RSS (VmHWM, read every 200 ms while it runs:
 * a peak in its last moments may be missed), or null where /proc is not available.
 */
export async function runMeasured(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutS: number,
  how: MeasuredHow = {},
): Promise<{ seconds: number; peakMiB: number | null }> {
  const started = performance.now();
  // A report on stdout stays apart from what the command prints: `stdout: 'stderr'` sends that to our stderr.
  const stdout = how.stdout === 'stderr' ? 2 : 'inherit';
  const child = tracked(
    spawn(how.command ?? process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', stdout, 'inherit'],
      timeout: Math.ceil(timeoutS * 1000),
      killSignal: 'SIGKILL',
    }),
  );
  let peak: number | null = null;
  const sample = () => {
    const reading = memory(child.pid!);
    // A process exiting has no VmHWM left to read (NaN), which must not hide the peak read before.
    if (reading && Number.isFinite(reading.peakMiB)) peak = Math.max(peak ?? 0, reading.peakMiB);
  };
  const sampler = setInterval(sample, 200);
  try {
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    if (code !== 0) throw new Error(`'${args.join(' ')}' failed (code ${code}, signal ${signal})`);
  } finally {
    clearInterval(sampler);
  }
  return { seconds: (performance.now() - started) / 1000, peakMiB: peak };
}

/** `node bin/lev-api.js generate ... | node bin/lev-api.js load ... -`, bounded by `timeoutS`. */
export async function pipe(
  producer: string[],
  consumer: string[],
  env: NodeJS.ProcessEnv,
  timeoutS: number,
): Promise<void> {
  const options = { cwd: ROOT, env, timeout: Math.ceil(timeoutS * 1000), killSignal: 'SIGKILL' as const };
  const from = tracked(spawn(process.execPath, producer, { ...options, stdio: ['ignore', 'pipe', 'inherit'] }));
  const to = tracked(spawn(process.execPath, consumer, { ...options, stdio: ['pipe', 'inherit', 'inherit'] }));
  from.stdout!.pipe(to.stdin!);
  // If the loader stops early, the generator gets EPIPE and says so; the loader's code decides.
  to.stdin!.on('error', () => {});
  const [[fromCode], [toCode, toSignal]] = (await Promise.all([once(from, 'exit'), once(to, 'exit')])) as [
    number | null,
    NodeJS.Signals | null,
  ][];
  if (toCode !== 0) throw new Error(`'${consumer.join(' ')}' failed (code ${toCode}, signal ${toSignal})`);
  if (fromCode !== 0) throw new Error(`'${producer.join(' ')}' failed (code ${fromCode})`);
}
