/**
 * `lev-api subscriptions add|update --roles` against the real PostgreSQL server: the roles a client
 * holds recorded (checked against the role vocabulary), changed, listed, and kept for its pushed
 * events; every mistake one line on stderr and exit 2.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPostgresEvents } from '../../src/store/postgres-events.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';
import { commandChecks } from '../run-cli.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

test('subscriptions --roles: recorded, changed, listed; unknown roles and misuse a one-line exit 2', {
  skip,
}, async (t) => {
  const { schema } = await emptySchema(t);
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000 });
  await migrate(driver);
  t.after(() => driver.close());
  const { subscriptions } = createPostgresEvents(driver, []);
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, WEBHOOK_ALLOW_HTTP: 'loopback' };
  const { ok, mistake } = commandChecks(t, 'subscriptions', env);

  assert.match(
    await ok([
      'add',
      '--client',
      'dwp',
      '--events',
      'death.registered',
      '--fields',
      'deceased.dateOfDeath',
      '--roles',
      'death,full-details',
      '--webhook',
      'http://127.0.0.1:9/hook',
    ]),
    /subscribed dwp to death.registered with deceased.dateOfDeath; roles held: death, full-details/,
  );
  assert.deepEqual((await subscriptions.get('dwp'))!.roles, ['death', 'full-details']);
  await ok(['add', '--client', 'hmrc', '--events', 'birth.registered']);
  assert.equal((await subscriptions.get('hmrc'))!.roles, undefined, 'not recorded unless given');

  // Changed alone, without touching the webhook; 'none' records that the client holds none.
  assert.match(await ok(['update', '--client', 'dwp', '--roles', 'death']), /roles held by dwp: death/);
  assert.deepEqual((await subscriptions.get('dwp'))!.roles, ['death']);
  await ok(['update', '--client', 'hmrc', '--roles', 'none']);
  assert.deepEqual((await subscriptions.get('hmrc'))!.roles, []);
  const listed = (await ok(['list'])).split('\n');
  const header = listed.indexOf('client\troles held (for pushed events)');
  assert.ok(header > 0, listed.join('\n'));
  assert.deepEqual(listed.slice(header + 1, header + 3), ['dwp\tdeath', 'hmrc\tnone']);

  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--roles', 'death,deaths'],
    /--roles: unknown role deaths \(known: birth, birth-verify, .*audit, credentials\)/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--roles', ','],
    /--roles: name at least one role/,
  );
  await mistake(['update', '--client', 'dwp', '--roles', 'admin'], /--roles: unknown role admin/);
  await mistake(['update', '--client', 'nobody', '--roles', 'death'], /nobody has no subscription/);
  await mistake(
    ['update', '--client', 'dwp', '--client-cert', 'a.pem', '--client-key', 'a.key', '--roles', 'death'],
    /--client-cert and --client-key need --webhook/,
  );
  await mistake(['update', '--client', 'dwp'], /--webhook is required .* or --roles/);
  assert.deepEqual((await subscriptions.get('dwp'))!.roles, ['death'], 'unchanged by the mistakes');
});
