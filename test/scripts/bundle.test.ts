/**
 * The compiled form (scripts/bundle.ts), built into a scratch folder of its own: every module the
 * code loads by path is where the code looks for it, the packages are inside but those kept out,
 * the bundled command finds its record types and package.json as the sources do, a thread starts
 * on its bundled module (the loader's runs bundled wherever a test runs `lev-api load`), and the
 * bundled service serves what each bundled package takes part in: the API, its OpenAPI document
 * and Swagger UI, metrics, the pages, and a wallet's pick-up of every format, checked by each
 * format's own verifier. The build refuses a bundled module that finds files beside itself, a
 * package kept out that the compiled form would not find, and a module that takes the banner's name.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { bundle, bundledFiles } from '../../scripts/bundle.ts';
import { LOADED_BY_PATH } from '../../src/module-folder.ts';
import { VERIFIERS, newWallet, pickUp } from '../http/wallet/wallet.ts';
import { serve } from '../../src/server.ts';
import { CALLER, testConfig } from '../helper.ts';
import { serveProcess } from '../serve-process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Laid out as the project is (package.json beside the compiled folder), inside it, so that the
// bundle's imports of packages find node_modules as dist/'s do; the compiled folder named otherwise
// than dist/, so that module URLs are found from the folder's own name.
const SCRATCH = join(ROOT, 'node_modules', '.cache', `lev-bundle-test-${process.pid}`);
const OUT = join(SCRATCH, 'compiled');

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

test('the packages are bundled, and those kept out imported from node_modules', () => {
  const text = bundledFiles(OUT)
    .map((name) => readFileSync(join(OUT, name), 'utf8'))
    .join('\n');
  // esbuild heads each module it bundles with its path.
  for (const inside of ['@sinclair/typebox/', 'fastify/fastify.js', 'ajv/', 'jose/', 'prom-client/'])
    assert.ok(text.includes(`// node_modules/${inside}`), inside);
  assert.doesNotMatch(text, /(from |require\()"fastify"/);
  // Kept out: pino for its thread, the Swagger UI (and the yaml it requires) for its files, cbor-x for
  // its native addon, tracing's packages, and pg, which tracing wraps.
  for (const outside of ['pino', '@fastify/swagger-ui', 'yaml', 'cbor-x', '@opentelemetry/api', 'pg']) {
    assert.ok(!text.includes(`// node_modules/${outside}/`), outside);
    assert.match(text, new RegExp(`(from |require\\()"${outside}"`), outside);
  }
});

test('the build refuses what the compiled form would run otherwise than the sources', async () => {
  const root = join(SCRATCH, 'refused');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('node_modules/beside-itself/package.json', '{"name":"beside-itself","main":"index.js"}');
  write('node_modules/beside-itself/index.js', "module.exports = require('node:path').join(__dirname, 'x');");
  write('src/beside.ts', "import 'beside-itself';");
  write('src/kept-out.ts', "import 'pino';");
  write('src/alias.ts', 'export const bundleRequire = 1;');
  const attempt = (entry: string, outdir = join(root, 'out')) =>
    bundle({ sources: join(root, 'src'), outdir, entries: [join(root, 'src', entry)], logLevel: 'silent' });
  await assert.rejects(attempt('beside.ts'), /beside-itself\/index\.js finds files beside itself/);
  // From a folder where Node would not find pino (no node_modules above it), it cannot stay out.
  const elsewhere = mkdtempSync(join(tmpdir(), 'lev-bundle-'));
  try {
    await assert.rejects(attempt('kept-out.ts', elsewhere), /imports pino from .*, which .* would not find/);
  } finally {
    rmSync(elsewhere, { recursive: true, force: true });
  }
  await assert.rejects(attempt('alias.ts'), /names bundleRequire itself/);
  await attempt('kept-out.ts');
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

test('the bundled service answers through each bundled package, its document as the sources give it', async (t) => {
  // The templates stay in src/ (templates.ts): where the compiled form looks for them from here.
  mkdirSync(join(SCRATCH, 'src', 'ui'), { recursive: true });
  symlinkSync(join(ROOT, 'src', 'ui', 'views'), join(SCRATCH, 'src', 'ui', 'views'));
  const cli = JSON.stringify(pathToFileURL(join(OUT, 'cli.js')).href);
  const url = await serveProcess(t, {}, [
    '--input-type=module',
    '-e',
    `const { main } = await import(${cli}); process.exitCode = await main(['serve']);`,
  ]);
  const get = async (path: string) => {
    const response = await fetch(url + path, { headers: CALLER });
    return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
  };
  const found = await get('/v1/registration/birth/123456789');
  assert.equal(found.status, 200, found.text);
  assert.equal((JSON.parse(found.text) as { id: number }).id, 123456789);
  assert.equal((await get('/v1/registration/birth/1')).status, 404);
  const document = await get('/docs/json');
  const sources = await serve(testConfig());
  t.after(() => sources.close());
  assert.deepEqual(JSON.parse(document.text), (await sources.inject('/docs/json')).json());
  assert.match((await get('/docs/yaml')).text, /^openapi: /);
  assert.match((await get('/docs/')).text, /swagger-ui/i);
  assert.match((await get('/metrics')).text, /^# HELP /m);
  const page = await get('/ui/sign-in');
  assert.equal(page.status, 200, page.text);
  assert.match(page.text, /govuk-template/);
  assert.match((await get('/ui/govuk/govuk-frontend.min.css')).type, /text\/css/);

  const metadata = JSON.parse((await get('/.well-known/openid-credential-issuer')).text) as {
    credential_configurations_supported: Record<string, { format: string }>;
  };
  const formats = [...new Set(Object.values(metadata.credential_configurations_supported).map((c) => c.format))];
  assert.deepEqual(
    formats.filter((format) => !VERIFIERS[format]),
    [],
  );
  assert.ok(formats.length >= 3, formats.join());
  for (const format of formats) {
    const wallet = newWallet();
    const response = await fetch(`${url}/v1/credentials/birth/123456789/offer`, {
      method: 'POST',
      headers: { ...CALLER, 'content-type': 'application/json' },
      body: JSON.stringify({ format }),
    });
    const offered = (await response.json()) as { offer: string };
    assert.equal(response.status, 201, JSON.stringify(offered));
    const { credentials } = await pickUp(wallet, offered.offer);
    await VERIFIERS[format](credentials[0], { issuer: url, type: 'birth', recordId: 123456789, wallet });
  }
});
