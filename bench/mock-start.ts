/**
 * `npm run bench:mock-start`: what a newcomer sees of the mock. Runs `npm start`'s own command (read
 * from package.json, so the figures are of what the README tells people to run), times its first
 * answered lookup from the moment the process is spawned, reads its resident memory once it has
 * been idle a few seconds, then after 20,000 requests (lookups and searches, 10 connections), and
 * again after idling. Each figure is the median of --rounds fresh starts. Traffic goes to 127.0.0.1.
 *
 *   npm run bench:mock-start -- [--rounds 3] [--idle 5]
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { memory } from './lib/proc.ts';
import { ROOT, freePort } from './lib/processes.ts';

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '3' }, idle: { type: 'string', default: '5' } },
});
const rounds = Number(values.rounds);
const idleMs = Number(values.idle) * 1000;
const HEADERS = { 'x-auth-username': 'bench', 'x-auth-aud': 'bench' };

/** `npm start`'s command, as package.json has it: `node [flags] bin/lev-api.js serve`. */
const startCommand = (
  JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { scripts: { start: string } }
).scripts.start.split(/\s+/);

async function oneStart() {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, startCommand.slice(1), {
    cwd: ROOT,
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

const runs: Awaited<ReturnType<typeof oneStart>>[] = [];
for (let i = 0; i < rounds; i++) runs.push(await oneStart());
const median = (pick: (run: (typeof runs)[number]) => number | undefined): number => {
  const sorted = runs
    .map(pick)
    .filter((v): v is number => v !== undefined)
    .sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
console.log(`npm start's command: ${startCommand.join(' ')}; ${rounds} fresh starts, medians`);
console.log('| first answer after spawn | RSS idle | RSS after 20,000 requests | RSS idle after them |');
console.log('|---|---|---|---|');
console.log(
  `| ${(median((r) => r.firstMs) / 1000).toFixed(2)} s | ${median((r) => r.idle)?.toFixed(0)} MiB ` +
    `| ${median((r) => r.loaded)?.toFixed(0)} MiB | ${median((r) => r.after)?.toFixed(0)} MiB |`,
);
console.log(
  `each: ${runs
    .map(
      (r) =>
        `${(r.firstMs / 1000).toFixed(2)} ` +
        `s, ${r.idle?.toFixed(0)}/${r.loaded?.toFixed(0)}/${r.after?.toFixed(0)} MiB`,
    )
    .join('; ')}`,
);
