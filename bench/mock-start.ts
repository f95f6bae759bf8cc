/**
 * `npm run bench:mock-start`: what a newcomer sees of the mock. Runs `npm start`'s own command (read
 * from package.json, so the figures are of what the README tells people to run), times its first
 * answered lookup from the moment the process is spawned, reads its resident memory once it has
 * been idle a few seconds, then after 20,000 requests (lookups and searches, 10 connections), and
 * again after idling. Each figure is the median of --rounds fresh starts. Traffic goes to 127.0.0.1.
 *
 * `--against DIR` starts another checkout's `npm start` (built: `npm ci` there) in the same rounds,
 * alternating with this one, and `--floor` a bare Fastify server (bare-fastify.mjs): on a machine
 * whose speed drifts, only figures taken side by side compare.
 *
 *   npm run bench:mock-start -- [--rounds 3] [--idle 5] [--against DIR] [--floor]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { memory } from './lib/proc.ts';
import { ROOT, freePort } from './lib/processes.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    idle: { type: 'string', default: '5' },
    against: { type: 'string' },
    floor: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const idleMs = Number(values.idle) * 1000;
const HEADERS = { 'x-auth-username': 'bench', 'x-auth-aud': 'bench' };

/** `npm start`'s command in `root`, as its package.json has it: `node [flags] bin/lev-api.js serve`. */
const startCommand = (root: string) =>
  (JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { scripts: { start: string } }).scripts.start.split(
    /\s+/,
  );

interface Subject {
  readonly name: string;
  readonly root: string;
  readonly command: readonly string[];
}

async function oneStart({ root, command }: Subject) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, command.slice(1), {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  try {
    const base = `http://127.0.0.1:${port}`;
    let firstMs: number | undefined;
    while (firstMs === undefined) {
      if (performance.now() - started > 60_000) throw new Error('the mock did not answer within a minute');
      const answered = await fetch(`${base}/v1/registration/birth/123456789`, { headers: HEADERS }).then(
        (r) => r.ok,
        () => false,
      );
      if (answered) firstMs = performance.now() - started;
      else await delay(10);
    }
    await delay(idleMs);
    const idle = memory(child.pid!)?.rssMiB;
    await autocannon({
      url: base,
      connections: 10,
      amount: 20_000,
      headers: HEADERS,
      requests: [
        { path: '/v1/registration/birth/123456789' },
        { path: '/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08' },
      ],
    });
    const loaded = memory(child.pid!)?.rssMiB;
    await delay(idleMs);
    const after = memory(child.pid!)?.rssMiB;
    return { firstMs, idle, loaded, after };
  } finally {
    child.kill('SIGTERM');
  }
}

const subjects: Subject[] = [{ name: 'this checkout', root: ROOT, command: startCommand(ROOT) }];
if (values.against)
  subjects.push({ name: values.against, root: values.against, command: startCommand(values.against) });
if (values.floor) subjects.push({ name: 'bare Fastify', root: ROOT, command: ['node', 'bench/bare-fastify.mjs'] });
const runs = new Map(subjects.map((subject) => [subject, [] as Awaited<ReturnType<typeof oneStart>>[]]));
for (let i = 0; i < rounds; i++) {
  // Alternating the order, so that neither is always the one started on a machine just busied.
  for (const subject of i % 2 ? [...subjects].reverse() : subjects) runs.get(subject)?.push(await oneStart(subject));
}
console.log(`npm start's command: ${subjects[0].command.join(' ')}; ${rounds} fresh starts each, medians`);
console.log('| started | first answer after spawn | RSS idle | RSS after 20,000 requests | RSS idle after them |');
console.log('|---|---|---|---|---|');
for (const [subject, starts] of runs) {
  const median = (pick: (run: (typeof starts)[number]) => number | undefined): number => {
    const sorted = starts
      .map(pick)
      .filter((v): v is number => v !== undefined)
      .sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  console.log(
    `| ${subject.name} | ${(median((r) => r.firstMs) / 1000).toFixed(2)} s | ${median((r) => r.idle)?.toFixed(0)} ` +
      `MiB | ${median((r) => r.loaded)?.toFixed(0)} MiB | ${median((r) => r.after)?.toFixed(0)} MiB |`,
  );
  console.log(
    `  each: ${starts
      .map(
        (r) =>
          `${(r.firstMs / 1000).toFixed(2)} ` +
          `s, ${r.idle?.toFixed(0)}/${r.loaded?.toFixed(0)}/${r.after?.toFixed(0)} MiB`,
      )
      .join('; ')}`,
  );
}
