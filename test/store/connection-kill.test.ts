/**
 * The service as operators run it (its own process, PostgreSQL, keep-alive clients), with the
 * server killing its connections under load: it must answer 200 or 503, never die, recover by
 * itself, and audit exactly the reads it answered.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { Agent, get } from 'node:http';
import { verifyAuditChain } from '../../src/audit/verify.ts';
import { migrate } from '../../src/store/migrations.ts';
import { loadMock } from '../../src/backend/open.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { createPostgresRecords } from '../../src/store/postgres-records.ts';
import { CALLER, TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';
import { builtInTypes as records, builtInServiceTypes } from '../record-types.ts';
import { startServe } from '../serve-process.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server at TEST_DATABASE_URL';
const KILL_FOR_MS = 15_000;

const PATHS = [
  '/v1/registration/birth/123456789',
  '/v1/registration/death?surname=Carlyle&forenames=Edwin&date=2017-02-09',
  '/api/v0/events/birth/123456789',
  '/v1/registration/marriage?surname=fairweather&forenames=LUCY&dateOfMarriage=2012-09-01',
];

/** A status other than 200 as counted: '503' only with a `{code: 'ServiceUnavailable', message}` body. */
function answerOf(status: number | undefined, body: string): string {
  try {
    const { code, message } = JSON.parse(body);
    if (status === 503 && code === 'ServiceUnavailable' && typeof message === 'string') return '503';
  } catch {}
  return `${status} ${body.slice(0, 100)}`;
}

/**
 * `connections` keep-alive clients, each sending its next request when the last is answered, until
 * `ms` have passed; every answer is counted, the last ones included (a failed request counts as 'error').
 */
async function drive(url: string, connections: number, ms: number): Promise<Record<string, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statuses: Record<string, number> = {};
  const until = Date.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async (_, client) => {
      for (let i = client; Date.now() < until; i++) {
        let status: string;
        try {
          status = await new Promise<string>((resolve, reject) => {
            get(url + PATHS[i % PATHS.length], { agent, headers: CALLER }, (response) => {
              // Answers other than 200 are read: a 503 must carry {code, message}.
              if (response.statusCode === 200)
                return void response
                  .resume()
                  .once('end', () => resolve('200'))
                  .once('error', reject);
              let body = '';
              response
                .setEncoding('utf8')
                .on('data', (chunk: string) => (body += chunk))
                .once('end', () => resolve(answerOf(response.statusCode, body)))
                .once('error', reject);
            }).once('error', reject);
          });
        } catch (error) {
          status = `error ${(error as { code?: string }).code ?? (error as Error).message}`;
        }
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return statuses;
}

/** `lev-api serve` on `env`, once it listens, with a line a request kept out of what a failure shows. */
async function serve(env: Record<string, string>) {
  const served = startServe({ LOG_LEVEL: 'info', ...env });
  return { ...served, url: await served.url };
}

test('connections killed every 0.5 s under 50 keep-alive clients: only 200 and 503, the process lives, and ' +
  'every 200 is audited', {
  skip,
  timeout: 90_000,
}, async (t) => {
  const { schema, admin } = await emptySchema(t, () => service?.child.kill('SIGKILL'));
  // Named after the schema: the kills reach this test's service and no other test's connections.
  const url = `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes('?') ? '&' : '?'}application_name=${schema}`;
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 2, statementTimeoutMs: 10_000 });
  await migrate(driver);
  await loadMock(createPostgresRecords(driver, records).writer, builtInServiceTypes);
  await driver.close();

  let service: Awaited<ReturnType<typeof serve>> | undefined;
  service = await serve({ DATABASE_URL: url, DATABASE_SCHEMA: schema, AUTH_MODE: 'mock' });
  const exited = once(service.child, 'exit');

  const kill = () =>
    admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
      [schema],
    );
  let killing = true;
  let kills = 0;
  let lastKill = Date.now();
  const killer = (async () => {
    while (killing) {
      kills += (await kill()).rowCount ?? 0;
      lastKill = Date.now();
      await sleep(500);
    }
  })();

  const statuses = await drive(service.url, 50, KILL_FOR_MS);
  killing = false;
  await killer;
  t.diagnostic(`answers ${JSON.stringify(statuses)}; connections killed ${kills}`);
  assert.ok(kills > 0, 'the server killed some of the service connections');

  assert.equal(service.child.exitCode, null, `the service is still running:\n${service.output().slice(-2000)}`);
  let ready = 0;
  while (Date.now() - lastKill < 5000) {
    ready = (await fetch(`${service.url}/readiness`)).status;
    if (ready === 200) break;
    await sleep(100);
  }
  assert.equal(ready, 200, '/readiness is 200 within 5 s of the kills stopping');

  assert.deepEqual(
    Object.keys(statuses).filter((code) => code !== '200' && code !== '503'),
    [],
    `only 200 and 503 were answered: ${JSON.stringify(statuses)}`,
  );
  assert.ok(statuses['200'] > 0, 'some reads were answered');

  const { rows } = await admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.audit_log`);
  assert.equal(Number(rows[0].n), statuses['200'], 'the audit rows equal the 200s exactly');

  service.child.kill('SIGTERM');
  await exited;
});

test('four processes writing the audit trail at once, connections killed at random: every 200 audited once, ' +
  'every chain and checkpoint intact', {
  skip,
  timeout: 120_000,
}, async (t) => {
  const services: Awaited<ReturnType<typeof serve>>[] = [];
  const { schema, admin } = await emptySchema(t, () => services.forEach((service) => service.child.kill('SIGKILL')));
  const url = `${TEST_DATABASE_URL}${TEST_DATABASE_URL.includes('?') ? '&' : '?'}application_name=${schema}`;
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 2, statementTimeoutMs: 10_000 });
  t.after(() => driver.close());
  await migrate(driver);
  await loadMock(createPostgresRecords(driver, records).writer, builtInServiceTypes);

  // Checkpoints every second, so that some are taken while connections die.
  const env = {
    DATABASE_URL: url,
    DATABASE_SCHEMA: schema,
    AUTH_MODE: 'mock',
    DATABASE_POOL_SIZE: '4',
    AUDIT_CHECKPOINT_S: '1',
  };
  for (let i = 0; i < 4; i++) services.push(await serve(env));
  const exits = services.map((service) => once(service.child, 'exit'));

  // Any of the services' connections, each with an even chance, every 100 to 700 ms.
  let killing = true;
  let kills = 0;
  const killer = (async () => {
    while (killing) {
      const { rowCount } = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> ` +
          `pg_backend_pid() AND random() < 0.5`,
        [schema],
      );
      kills += rowCount ?? 0;
      await sleep(100 + Math.random() * 600);
    }
  })();
  const answers = await Promise.all(services.map((service) => drive(service.url, 12, 10_000)));
  killing = false;
  await killer;
  t.diagnostic(`answers ${JSON.stringify(answers)}; connections killed ${kills}`);
  assert.ok(kills > 0, 'the server killed some of the services connections');
  for (const [i, statuses] of answers.entries()) {
    assert.equal(
      services[i].child.exitCode,
      null,
      `service ${i} is still running:\n${services[i].output().slice(-2000)}`,
    );
    assert.deepEqual(
      Object.keys(statuses).filter((code) => code !== '200' && code !== '503'),
      [],
      `service ${i}: only 200 and 503: ${JSON.stringify(statuses)}`,
    );
    assert.ok(statuses['200'] > 0, `service ${i} answered some reads`);
  }

  for (const service of services) service.child.kill('SIGTERM');
  await Promise.all(exits);
  const ok = answers.reduce((sum, statuses) => sum + statuses['200'], 0);
  const { rows } = await admin.query<{ n: string; writers: string }>(
    `SELECT count(*) AS n, count(DISTINCT writer) AS writers FROM ${schema}.audit_log`,
  );
  assert.equal(Number(rows[0].n), ok, 'the audit rows equal the 200s exactly');
  assert.equal(Number(rows[0].writers), 4, 'one writer a process');
  const verified = await verifyAuditChain(driver);
  assert.deepEqual(
    { ...verified, checkpoints: undefined },
    { ok: true, entries: ok, writers: 4, checkpoints: undefined },
  );
  assert.ok(verified.ok && (verified.checkpoints ?? 0) > 0, 'checkpoints were taken, and verified');
});
