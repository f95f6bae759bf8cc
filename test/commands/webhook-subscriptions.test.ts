/**
 * `lev-api subscriptions` with webhooks, against the real PostgreSQL server: a webhook and its
 * secret shown once, an Ed25519 key pair, rotation, update, dead letters and redelivery listed;
 * every bad option one line on stderr and exit 2.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';
import { commandChecks, runCli as run } from '../run-cli.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

test('subscriptions with webhooks: add (secret once, Ed25519), update, rotate-secret, list, dead letters; a ' +
  'one-line exit 2 for each mistake', {
  skip,
}, async (t) => {
  const { schema, admin } = await emptySchema(t);
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000 });
  await migrate(driver);
  await driver.close();
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, WEBHOOK_ALLOW_HTTP: 'loopback' };
  const { ok, mistake } = commandChecks(t, 'subscriptions', env);

  const added = await ok([
    'add',
    '--client',
    'dwp',
    '--events',
    'death.registered',
    '--webhook',
    'http://127.0.0.1:9/hook',
    '--ed25519',
  ]);
  const secret = /secret (whsec_[A-Za-z0-9+/=]+) \(shown this once/.exec(added)?.[1];
  assert.ok(secret, added);
  assert.match(added, /Ed25519 public key whpk_[A-Za-z0-9+/=]{44}/);
  const [stored] = (
    await admin.query(`SELECT secret, signing_key FROM ${schema}.webhook_endpoint WHERE client = 'dwp'`)
  ).rows;
  assert.equal(stored.secret, secret);
  assert.ok(stored.signing_key);

  const rotated = await ok(['rotate-secret', '--client', 'dwp', '--grace', '2h']);
  const next = /new secret for dwp: (whsec_\S+)/.exec(rotated)?.[1];
  assert.ok(next && next !== secret);
  const [after] = (
    await admin.query(
      `SELECT secret, previous_secret, previous_until - now() AS grace FROM ${schema}.webhook_endpoint WHERE ` +
        `client = 'dwp'`,
    )
  ).rows;
  assert.equal(after.secret, next);
  assert.equal(after.previous_secret, secret);
  assert.ok(after.grace.hours === 1 || after.grace.hours === 2, JSON.stringify(after.grace));

  await ok(['add', '--client', 'hmrc', '--events', 'birth.registered']);
  assert.match(await ok(['update', '--client', 'hmrc', '--webhook', 'http://localhost:9/b']), /secret whsec_/);
  assert.match(await ok(['update', '--client', 'hmrc', '--webhook', 'http://localhost:9/c']), /delivering/);
  const listed = await ok(['list']);
  assert.match(listed, /\nclient\twebhook\tstate\tdelivered through\tlag\toldest undelivered\tdead letters\n/);
  assert.match(listed, /dwp\thttp:\/\/127\.0\.0\.1:9\/hook\tdelivering\t0\t0\t-\t0/);
  assert.match(listed, /hmrc\thttp:\/\/localhost:9\/c\tdelivering/);
  assert.equal(await ok(['dead-letters', 'dwp']), 'event\tfailed at\tattempts\tstatus\terror\tqueued');
  assert.match(await ok(['redeliver', '--client', 'dwp', '--all']), /queued 0 dead letter/);

  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'ftp://example.org/'],
    /--webhook: only https URLs, not ftp/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'nonsense'],
    /--webhook: "nonsense" is no URL/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'http://example.org/'],
    /plain http only to a loopback address/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'https://10.1.2.3/'],
    /10\.1\.2\.3 is a private address/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'https://127.0.0.1/'],
    /127\.0\.0\.1 is a loopback address/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'https://[fe80::1]/'],
    /fe80::1 is a link-local address/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'https://user:pw@example.org/'],
    /no user name or password/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'https://8.8.8.8:0/hook'],
    /--webhook: a webhook URL names no port 0/,
  );
  for (const typed of ['https://8.8.8.8/a hook', 'https://8.8.8.8/hook\r\nX-Injected: 1', ' https://8.8.8.8/hook']) {
    await mistake(
      ['add', '--client', 'x', '--events', 'death.registered', '--webhook', typed],
      /--webhook: .* holds a space or a control character/,
    );
  }
  // Stored, printed and listed as the parser writes it, not as typed.
  assert.match(
    await ok(['add', '--client', 'dvla', '--events', 'death.registered', '--webhook', 'HTTP://LOCALHOST:9/x/../hook']),
    /^webhook http:\/\/localhost:9\/hook: secret/m,
  );
  const [typed] = (await admin.query(`SELECT url FROM ${schema}.webhook_endpoint WHERE client = 'dvla'`)).rows;
  assert.equal(typed.url, 'http://localhost:9/hook');
  assert.match(await ok(['list']), /dvla\thttp:\/\/localhost:9\/hook\t/);
  await mistake(['add', '--client', 'x', '--events', 'death.registered', '--ed25519'], /need --webhook/);
  await mistake(
    [
      'add',
      '--client',
      'x',
      '--events',
      'death.registered',
      '--webhook',
      'http://127.0.0.1:9/',
      '--client-cert',
      'a.pem',
    ],
    /go together/,
  );
  await mistake(
    [
      'add',
      '--client',
      'x',
      '--events',
      'death.registered',
      '--webhook',
      'http://127.0.0.1:9/',
      '--client-cert',
      'a.pem',
      '--client-key',
      'b.pem',
    ],
    /not a PEM certificate/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--webhook', 'http://127.0.0.1:9/'],
    /plain http only to a loopback address|only https/,
    { ...env, WEBHOOK_ALLOW_HTTP: 'no' },
  );
  await mistake(['update', '--client', 'dwp'], /--webhook is required/);
  await mistake(['update', '--client', 'nobody', '--webhook', 'http://127.0.0.1:9/'], /nobody has no subscription/);
  await mistake(['rotate-secret', '--client', 'dwp', '--grace', 'forever'], /--grace must be a duration/);
  await mistake(['rotate-secret', '--client', 'dwp', '--grace', '31d'], /at most 30d/);
  await mistake(['rotate-secret', '--client', 'nobody'], /nobody has no webhook/);
  await mistake(['dead-letters'], /--client is required/);
  await mistake(['dead-letters', 'a', 'b'], /name the client once/);
  await mistake(['redeliver', '--client', 'dwp'], /say which dead letters/);
  await mistake(['redeliver', '--client', 'dwp', '--all', '--event', '3'], /say which dead letters/);
  await mistake(['redeliver', '--client', 'dwp', '--event', 'x'], /--event must be/);
  await mistake(['redeliver', '--client', 'dwp', '--event', '3'], /event 3 is not among dwp's dead letters/);
  await mistake(['redeliver', '--client', 'dwp', '--from', 'yesterday'], /--from must be an ISO 8601/);
  await mistake(
    ['redeliver', '--client', 'dwp', '--from', '2026-11-02', '--to', '2026-11-01'],
    /--to must be after --from/,
  );
  // Date alone reads these as 2 March and 1 December: the service's own date check refuses them.
  await mistake(
    ['redeliver', '--client', 'dwp', '--from', '2026-02-30'],
    /--from 2026-02-30 is written right but is no real date/,
  );
  await mistake(
    ['redeliver', '--client', 'dwp', '--from', '2026-11-01', '--to', '2026-11-31T00:00Z'],
    /--to 2026-11-31T00:00Z is written right but is no real date/,
  );
  await mistake(
    ['redeliver', '--client', 'dwp', '--from', '2026-11-01T24:00Z'],
    /--from 2026-11-01T24:00Z is written right but is no real date/,
  );
  assert.match(
    await ok(['redeliver', '--client', 'dwp', '--from', '2026-11-01T09:00Z', '--to', '2026-11-02']),
    /queued 0 dead letter/,
  );
  // A bad setting is told as every configuration problem is: named, with exit 2.
  const badSetting = await run(t, ['subscriptions', 'list'], { ...env, WEBHOOK_ALLOWED_NETWORKS: '10.0.0.0/99' });
  assert.equal(badSetting.code, 2);
  assert.match(badSetting.stderr, /WEBHOOK_ALLOWED_NETWORKS: "10\.0\.0\.0\/99" is no network/);
  const longTimeout = await run(t, ['subscriptions', 'list'], { ...env, WEBHOOK_TIMEOUT_S: '30' });
  assert.equal(longTimeout.code, 2);
  assert.match(longTimeout.stderr, /WEBHOOK_TIMEOUT_S=30 is not shorter than WEBHOOK_LEASE_S=30/);
  const longRetry = await run(t, ['subscriptions', 'list'], {
    ...env,
    WEBHOOK_RETRY_HOURS: '720',
    EVENTS_RETENTION_DAYS: '30',
  });
  assert.equal(longRetry.code, 2);
  assert.match(longRetry.stderr, /WEBHOOK_RETRY_HOURS=720 is not shorter than EVENTS_RETENTION_DAYS=30/);
  const deliver = await run(t, ['deliver', '--slots', '0'], env);
  assert.equal(deliver.code, 2);
  assert.match(deliver.stderr, /^lev-api deliver: --slots must be a whole number from 1 to 256, not "0"/);
  const badPort = await run(t, ['deliver', '--metrics-port', 'x'], env);
  assert.equal(badPort.code, 2);
  assert.match(badPort.stderr, /--metrics-port must be a TCP port/);
  const noDatabase = await run(t, ['deliver'], {});
  assert.equal(noDatabase.code, 2);
  assert.match(noDatabase.stderr, /DATABASE_URL is not set/);
});
