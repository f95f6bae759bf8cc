/**
 * `lev-api subscriptions` against the real PostgreSQL server: add, list (state, acknowledged
 * position, lag), pause, resume, remove; every mistake one line on stderr and exit 2.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';
import { commandChecks } from '../run-cli.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

test('subscriptions: add, list, pause, resume, remove, and a one-line exit 2 for each mistake', { skip }, async (t) => {
  const { schema } = await emptySchema(t);
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 1, statementTimeoutMs: 10_000 });
  await migrate(driver);
  await driver.close();
  const env = { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };
  const { ok, mistake } = commandChecks(t, 'subscriptions', env);

  assert.match(
    await ok([
      'add',
      '--client',
      'dwp',
      '--events',
      'death.registered,death.updated',
      '--fields',
      'deceased.dateOfDeath,deceased.surname',
    ]),
    /subscribed dwp/,
  );
  assert.match(await ok(['add', '--client', 'hmrc', '--events', 'birth.registered']), /subscribed hmrc/);
  await ok(['pause', '--client', 'hmrc']);
  const listed = (await ok(['list'])).split('\n');
  assert.equal(listed[0], 'client\tstate\tevents\tfields\tacknowledged\tlag');
  assert.equal(listed[1], 'dwp\tactive\tdeath.registered,death.updated\tdeceased.dateOfDeath,deceased.surname\t-\t0');
  assert.equal(listed[2], 'hmrc\tpaused\tbirth.registered\t-\t-\t0');
  await ok(['resume', '--client', 'hmrc']);
  assert.match(await ok(['list']), /hmrc\tactive/);
  await ok(['remove', '--client', 'hmrc']);
  assert.doesNotMatch(await ok(['list']), /hmrc/);

  await mistake([], /name what to do/);
  await mistake(['subscribe'], /expected one of add, list/);
  await mistake(['add', '--events', 'death.registered'], /--client is required/);
  await mistake(['add', '--client', 'a b', '--events', 'death.registered'], /--client must be/);
  await mistake(['add', '--client', 'x'], /--events is required/);
  await mistake(['add', '--client', 'x', '--events', 'death.died'], /unknown event type\(s\) death\.died/);
  await mistake(['add', '--client', 'x', '--events', ''], /at least one event type/);
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--fields', 'child.forenames'],
    /'child\.forenames' is no field of a death record/,
  );
  await mistake(
    ['add', '--client', 'x', '--events', 'death.registered', '--fields', 'nextRegistration'],
    /'nextRegistration' is no field/,
  );
  await mistake(['add', '--client', 'dwp', '--events', 'death.registered'], /dwp has a subscription already/);
  await mistake(['add', '--client', 'x', '--events', 'death.registered', '--colour', 'red'], /unknown option --colour/);
  await mistake(['pause', '--client', 'nobody'], /nobody has no subscription/);
  await mistake(['remove'], /--client is required/);
  await mistake(['list', '--client', 'dwp'], /unknown option --client/);
  await mistake(['list'], /DATABASE_URL is not set/, {});
});
