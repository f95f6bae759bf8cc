/**
 * The compiled form (scripts/bundle.ts), built into a scratch folder of its own: every module the
 * code loads by path is where the code looks for it, TypeBox is inside and other packages are not,
 * the bundled command finds its record types and package.json as the sources do, and a thread
 * starts on its bundled module (the loader's runs bundled wherever a test runs `lev-api load`).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { bundle } from '../../scripts/bundle.ts';
import { LOADED_BY_PATH } from '../../src/module-folder.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Laid out as the project is (package.json beside the compiled folder), inside it, so that the
// bundle's imports of packages find node_modules as dist/'s do; the compiled folder named otherwise
// than dist/, so that module URLs are found from the folder's own name.
const SCRATCH = join(ROOT, 'node_modules', '.cache', `lev-bundle-test-${process.pid}`);
const OUT = join(SCRATCH, 'compiled');

const outputs = (folder: string): string[] =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));

before(async () => {
  mkdirSync(SCRATCH, { recursive: true });
  copyFileSync(join(ROOT, 'package.json'), join(SCRATCH, 'package.json'));
  await bundle({ outdir: OUT });
});
after(() => rmSync(SCRATCH, { recursive: true, force: true }));

test('each module loaded by path is an entry point at the path the code asks for', () => {
  for (const thread of LOADED_BY_PATH.threads) assert.ok(existsSync(join(OUT, `${thread}.js`)), thread);
  for (const folder of LOADED_BY_PATH.folders) {
    const sources = readdirSync(join(ROOT, 'src', folder)).filter((name) => name.endsWith('.ts'));
    const compiled = readdirSync(join(OUT, folder)).filter((name) => name.endsWith('.js'));
    assert.deepEqual(compiled.sort(), sources.map((name) => name.replace(/\.ts$/, '.js')).sort(), folder);
  }
  for (const imported of ['cli.js', 'tracing/start.js']) assert.ok(existsSync(join(OUT, imported)), imported);
});

test('TypeBox is bundled, and every other package is imported from node_modules', () => {
  const text = outputs(OUT)
    .map((name) => readFileSync(join(OUT, name), 'utf8'))
    .join('\n');
  assert.doesNotMatch(text, /from ["']@sinclair\/typebox/);
  assert.match(text, /Symbol\.for\("TypeBox\.Kind"\)/);
  assert.match(text, /from "fastify"/);
  assert.doesNotMatch(text, /node_modules\/fastify\//);
});

test('the bundled command reads its record types, its version and its generator as the sources do', async () => {
  const cli = pathToFileURL(join(OUT, 'cli.js')).href;
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [
      '--input-type=module',
      '-e',
      `const { main } = await import(${JSON.stringify(cli)}); process.exitCode = await main(${JSON.stringify(args)});`,
    ]);
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.equal((await run(['--version'])).stdout.trim(), version);
  const { stdout } = await run(['generate', '--type', 'death', '--count', '2', '--seed', '7']);
  const lines = stdout.trim().split('\n');
  assert.equal(lines.length, 2);
  assert.ok(lines.every((line) => typeof (JSON.parse(line) as { id: unknown }).id === 'number'));
});

test('the close-match thread starts on its bundled module and answers', async () => {
  const worker = new Worker(pathToFileURL(join(OUT, 'store/suggestion-thread-worker.js')), {
    workerData: { types: ['birth'] },
  });
  try {
    // Its index's state comes first, then the answer to what was asked.
    const answer = new Promise((resolve, reject) => {
      worker.on('message', (message: { id?: number }) => message.id === 1 && resolve(message));
      worker.once('error', reject);
    });
    worker.postMessage({ id: 1, reached: 0 });
    assert.deepEqual(await answer, { id: 1 });
  } finally {
    await worker.terminate();
  }
});
