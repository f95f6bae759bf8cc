/**
 * Traces as an operator's collector receives them: `lev-api serve`, started as operators start it
 * with the OTEL_* settings, sends its spans to a small OTLP/HTTP receiver here (the JSON encoding).
 * A search with a known name and date, sent with a traceparent, must come back as one trace that
 * continues it, with the parts of the request as spans under the request's own, and nothing of the
 * name or the date anywhere in what was received; of a request outside the sample, no span at all.
 * On PostgreSQL (where a server answers) the store's queries are spans too.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestContext } from 'node:test';
import { loadMock } from '../../src/backend/open.ts';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { CALLER, TEST_DATABASE_URL, emptySchema, storeKinds } from '../helper.ts';
import { serveProcess } from '../serve-process.ts';
import { signIn } from '../ui/sign-in.ts';
import { builtInTypes as records, builtInServiceTypes } from '../record-types.ts';

const BIN = fileURLToPath(new URL('../../bin/lev-api.js', import.meta.url));

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP collector in miniature: each body POSTed to /v1/traces, as received. */
async function otlpReceiver(t: TestContext) {
  const bodies: string[] = [];
  /** The traceparent of each POST to /hook: a webhook receiver's view. */
  const hooked: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') bodies.push(body);
      if (request.url === '/hook') hooked.push(request.headers.traceparent as string | undefined);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  t.after(() => new Promise((closed) => server.close(closed)));
  const spans = (): OtlpSpan[] =>
    bodies.flatMap((body) =>
      (JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap(
        (resource) => resource.scopeSpans.flatMap((scope) => scope.spans),
      ),
    );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bodies, hooked, spans };
}

/** A schema holding the mock's records, for `serve` to read with DATABASE_SCHEMA. */
async function mockSchema(t: TestContext): Promise<string> {
  const { schema } = await emptySchema(t);
  const driver = openPostgres({
    url: TEST_DATABASE_URL,
    schema,
    poolSize: 2,
    statementTimeoutMs: 10_000,
    applicationName: schema,
  });
  await migrate(driver, {});
  const backend = postgresBackend(driver, records);
  await loadMock(backend.writer, builtInServiceTypes);
  await backend.close();
  return schema;
}

/** A span's name is `name`, or `name:` and what it acts on (pg.query:SELECT test). */
const nameIs = (span: OtlpSpan, name: string) => span.name === name || span.name.startsWith(`${name}:`);

/** The trace's spans once those named have all arrived (the SDK sends in batches, every 5 s). */
async function spansOf(receiver: Awaited<ReturnType<typeof otlpReceiver>>, traceId: string, names: readonly string[]) {
  for (let waited = 0; waited < 30_000; waited += 250) {
    const spans = receiver.spans().filter((span) => span.traceId === traceId);
    if (names.every((name) => spans.some((span) => nameIs(span, name)))) return spans;
    await sleep(250);
  }
  assert.fail(
    `the spans ${names.join(', ')} did not all arrive; received: ${receiver
      .spans()
      .map((span) => span.name)
      .join(', ')}`,
  );
}

test('with tracing off the service imports none of OpenTelemetry, and answers', async (t) => {
  // Loader hooks given to the process first that note every OpenTelemetry module it imports. (prom-client
  // requires the API's CommonJS build for itself: its own, not the service's.)
  const folder = mkdtempSync(join(tmpdir(), 'lev-otel-off-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const noted = join(folder, 'imported.txt');
  writeFileSync(
    join(folder, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/@opentelemetry/')) appendFileSync(${JSON.stringify(noted)}, resolved.url + '\\n');
  return resolved;
}`,
  );
  writeFileSync(
    join(folder, 'watch.mjs'),
    `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(join(folder, 'hooks.mjs')).href)});`,
  );
  const url = await serveProcess(t, { NODE_OPTIONS: `--import ${pathToFileURL(join(folder, 'watch.mjs')).href}` });
  const answered = await fetch(`${url}/v1/registration/birth/999999001`, { headers: CALLER });
  assert.equal(answered.status, 200);
  assert.equal(existsSync(noted) ? readFileSync(noted, 'utf8') : '', '');
});

for (const kind of await storeKinds()) {
  test(
    `a search's trace on the ${kind} store: its parts as spans, the caller's trace continued, no name or ` + `date`,
    async (t) => {
      const receiver = await otlpReceiver(t);
      const database: Record<string, string> =
        kind === 'postgres'
          ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: await mockSchema(t), AUTH_MODE: 'mock' }
          : {};
      const url = await serveProcess(t, {
        ...database,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_SERVICE_NAME: 'lev-api-test',
      });

      const traceId = randomBytes(16).toString('hex');
      const callerSpan = randomBytes(8).toString('hex');
      // First a request whose caller chose not to sample (flags 00): none of it may become a span,
      // nor a trace of its own (its parts, its queries), so all that arrives below is the second's.
      const unsampled = await fetch(
        `${url}/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08`,
        {
          headers: { ...CALLER, traceparent: `00-${randomBytes(16).toString('hex')}-${callerSpan}-00` },
        },
      );
      assert.equal(unsampled.status, 200);
      const response = await fetch(
        `${url}/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08`,
        {
          headers: { ...CALLER, traceparent: `00-${traceId}-${callerSpan}-01` },
        },
      );
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { id: number }[])[0]?.id, 123456789);

      const own = ['request', 'identify', 'store.search', 'audit.record', 'render'];
      const spans = await spansOf(receiver, traceId, kind === 'postgres' ? [...own, 'pg.query'] : own);
      assert.deepEqual(
        receiver
          .spans()
          .filter((span) => span.traceId !== traceId)
          .map((span) => span.name),
        [],
        'spans of the request outside the sample',
      );
      const named = (name: string) => spans.find((span) => nameIs(span, name)) as OtlpSpan;
      const request = named('request');
      // The caller's trace continued: the request's span is a child of the caller's.
      assert.equal(request.parentSpanId, callerSpan);
      const ancestors = (span: OtlpSpan): string[] => {
        const parent = spans.find((other) => other.spanId === span.parentSpanId);
        return parent ? [parent.spanId, ...ancestors(parent)] : [];
      };
      for (const name of ['identify', 'store.search', 'audit.record', 'render']) {
        assert.ok(ancestors(named(name)).includes(request.spanId), `${name} is not within the request's span`);
      }
      const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value;
      assert.deepEqual(attribute(named('store.search'), 'lev.record.type'), { stringValue: 'birth' });
      assert.deepEqual(attribute(named('store.search'), 'lev.result.count'), { intValue: 1 });
      assert.deepEqual(attribute(request, 'http.route'), { stringValue: '/v1/registration/birth' });
      assert.deepEqual(attribute(request, 'url.path'), { stringValue: '/v1/registration/birth' });
      assert.deepEqual(attribute(request, 'http.response.status_code'), { intValue: 200 });
      if (kind === 'postgres') {
        const queries = spans.filter((span) => nameIs(span, 'pg.query'));
        assert.ok(
          queries.some((query) => ancestors(query).includes(named('store.search').spanId)),
          'no query within the store.search span',
        );
        assert.ok(
          queries.every(
            (query) =>
              attribute(query, 'db.statement') === undefined && attribute(query, 'db.query.text') === undefined,
          ),
        );
      }

      // Nothing the caller asked for, in any span, attribute or event of anything received.
      const received = receiver.bodies.join('\n');
      for (const secret of ['Ashworth', 'Eleanor', '2008-08-08', 'surname', 'dateOfBirth']) {
        assert.ok(!received.toLowerCase().includes(secret.toLowerCase()), `the receiver was sent '${secret}'`);
      }
    },
  );
}

test('a request whose caller goes before the answer still ends its span, with no status', async (t) => {
  const receiver = await otlpReceiver(t);
  const url = new URL(await serveProcess(t, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }));
  const traceId = randomBytes(16).toString('hex');
  // A body promised and never sent: the request waits for it, and the caller then hangs up.
  const socket = connect(Number(url.port), url.hostname);
  await once(socket, 'connect');
  socket.write(
    `POST /v1/registration/birth HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\n` +
      `content-length: 100\r\ntraceparent: 00-${traceId}-${randomBytes(8).toString('hex')}-01\r\n\r\n{`,
  );
  await sleep(500);
  socket.destroy();
  const [request] = await spansOf(receiver, traceId, ['request']);
  assert.equal(
    request.attributes?.find((a) => a.key === 'http.response.status_code'),
    undefined,
    'a status on a request never answered',
  );
});

test('a webhook delivery sends traceparent, and its trace reaches the collector', async (t) => {
  const receiver = await otlpReceiver(t);
  // The mock's webhook is sent the invented registrations it adds, one a second here.
  await serveProcess(t, {
    MOCK_WEBHOOKS: `${receiver.url}/hook`,
    WEBHOOK_ALLOW_HTTP: 'loopback',
    MOCK_EVENT_INTERVAL_S: '1',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  });
  for (let waited = 0; !receiver.hooked.length && waited < 30_000; waited += 250) await sleep(250);
  const [traceparent] = receiver.hooked;
  const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(traceparent ?? '');
  assert.ok(sent, `the receiver was sent traceparent ${traceparent}`);
  const [delivery] = await spansOf(receiver, sent[1], ['POST']);
  assert.equal(delivery.spanId, sent[2]);
  const attribute = delivery.attributes?.find((a) => a.key === 'url.full')?.value;
  assert.deepEqual(attribute, { stringValue: `${receiver.url}/hook` });
});

/** `lev-api COMMAND` as a process of its own, with `env` only; its exit code and what it wrote. */
async function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
  const code = await new Promise<number | null>((exited) => child.once('exit', exited));
  return { code, output };
}

test("a load traced on PostgreSQL: its events' delivery continues the load's trace, and the receiver is sent it", {
  skip: !(await storeKinds()).includes('postgres') && 'no PostgreSQL server',
  timeout: 90_000,
}, async (t) => {
  const receiver = await otlpReceiver(t);
  const { schema } = await emptySchema(t);
  const driver = openPostgres({
    url: TEST_DATABASE_URL,
    schema,
    poolSize: 2,
    statementTimeoutMs: 10_000,
    applicationName: schema,
  });
  t.after(() => driver.close());
  await migrate(driver, {});
  const backend = postgresBackend(driver, records);
  await backend.subscriptions.add({ client: 'dwp', events: ['death.registered'], fields: [] });
  await backend.webhooks!.setEndpoint('dwp', { url: `${receiver.url}/hook` }, { secret: newSecret() });
  const folder = mkdtempSync(join(tmpdir(), 'lev-traced-load-'));
  t.after(() => rmSync(folder, { recursive: true, force: true }));
  const file = join(folder, 'deaths.ndjson');
  const deaths = [1, 2, 3].map((id) => ({
    id,
    deceased: { forenames: 'A', surname: `Traced${id}`, dateOfDeath: '2024-03-01', dateOfBirth: '1940-01-01' },
    status: { blocked: false },
  }));
  writeFileSync(file, deaths.map((death) => JSON.stringify(death)).join('\n'));
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    WEBHOOK_ALLOW_HTTP: 'loopback',
  };

  const loaded = await run(['load', '--type', 'death', file], env);
  assert.equal(loaded.code, 0, loaded.output);
  const load = receiver.spans().find((span) => span.name === 'load');
  assert.ok(
    load,
    `the load's span was sent before the command ended; received: ${receiver
      .spans()
      .map((span) => span.name)
      .join(', ')}`,
  );
  assert.equal(load.parentSpanId || undefined, undefined, 'a trace of its own');

  const deliver = spawn(process.execPath, [BIN, 'deliver', '--slots', '1'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: 'ignore',
  });
  t.after(() => deliver.kill('SIGKILL'));
  for (let waited = 0; receiver.hooked.length < 3 && waited < 30_000; waited += 250) await sleep(250);
  assert.equal(receiver.hooked.length, 3, 'the three events delivered');
  for (const traceparent of receiver.hooked)
    assert.match(
      traceparent ?? '',
      new RegExp(`^00-${load.traceId}-[0-9a-f]{16}-01$`),
      "the receiver was sent the load's trace",
    );
  const spans = await spansOf(receiver, load.traceId, ['webhook.deliver', 'POST']);
  const deliveries = spans.filter((span) => span.name === 'webhook.deliver');
  assert.ok(
    deliveries.length >= 3 && deliveries.every((span) => span.parentSpanId === load.spanId),
    'each delivery a child of the load',
  );
  const received = receiver.bodies.join('\n');
  assert.ok(!received.includes('Traced'), 'no name of a record in any span');
});

test("the pages carry a request's sampling on to the API, sampled or not", async (t) => {
  const receiver = await otlpReceiver(t);
  // The API as the pages' process sees it: what traceparent each call carried, and a 404 for all.
  const sent: (string | undefined)[] = [];
  const api = createServer((request, response) => {
    sent.push(request.headers.traceparent as string | undefined);
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"code":"NotFound","message":"No record has that system number."}');
  });
  await new Promise<void>((listening) => api.listen(0, '127.0.0.1', listening));
  t.after(() => new Promise((closed) => api.close(closed)));
  const pages = await serveProcess(
    t,
    {
      UI_API_URL: `http://127.0.0.1:${(api.address() as AddressInfo).port}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    },
    [BIN, 'ui'],
  );
  const cookie = await signIn(pages, ['birth'], 'traced');

  const page = async (flags: string) => {
    const traceId = randomBytes(16).toString('hex');
    const before = sent.length;
    const answered = await fetch(`${pages}/ui/birth/123456789`, {
      headers: { cookie, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-${flags}` },
    });
    assert.equal(answered.status, 404);
    assert.equal(sent.length, before + 1, 'the page did not call the API once');
    return { traceId, carried: sent[before] };
  };
  // Outside the sample: the API is told so, in the same trace, and nothing of it is exported.
  const unsampled = await page('00');
  assert.match(unsampled.carried ?? '', new RegExp(`^00-${unsampled.traceId}-[0-9a-f]{16}-00$`));
  const sampled = await page('01');
  assert.match(sampled.carried ?? '', new RegExp(`^00-${sampled.traceId}-[0-9a-f]{16}-01$`));
  await spansOf(receiver, sampled.traceId, ['request']);
  assert.deepEqual(
    receiver.spans().filter((span) => span.traceId === unsampled.traceId),
    [],
    'spans of the page outside the sample',
  );
});
