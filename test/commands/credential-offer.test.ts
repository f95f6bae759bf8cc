/**
 * `lev-api credentials offer` against the real PostgreSQL server: the offer it prints is picked up
 * by a wallet (`Openid4vciClient`) from a service over the same database and key, with its
 * transaction code; the command's mistakes are one line and exit 2, a registration without a
 * credential exit 1; the offer is audited as the operator's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { loadMock } from '../../src/backend/open.ts';
import { newIssuerKey } from '../../src/credentials/keys.ts';
import { migrate } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable, startApp, testConfig } from '../helper.ts';
import { VERIFIERS, newWallet, pickUp } from '../http/wallet/wallet.ts';
import { builtInServiceTypes, builtInTypes } from '../record-types.ts';
import { commandChecks, runCli } from '../run-cli.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

test('credentials offer: a deep link a wallet picks up from the service, and a one-line exit 2 for each mistake', {
  skip,
}, async (t) => {
  let backend: ReturnType<typeof postgresBackend> | undefined;
  const { schema, admin } = await emptySchema(t, () => backend?.close());
  const driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 4, statementTimeoutMs: 10_000 });
  await migrate(driver);
  backend = postgresBackend(driver, builtInTypes);
  await loadMock(backend.writer, builtInServiceTypes);
  const key = newIssuerKey().export({ format: 'der', type: 'pkcs8' }).toString('base64');
  const app = await startApp(t, backend, testConfig({ CREDENTIAL_SIGNING_KEY: key }), undefined, builtInTypes);
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    CREDENTIAL_ISSUER_URL: app.url,
    CREDENTIAL_SIGNING_KEY: key,
    LOG_LEVEL: 'silent',
  };
  const { ok, mistake } = commandChecks(t, 'credentials', env);

  const printed = (
    await ok(['offer', '--type', 'birth', '--id', '123456789', '--format', 'dc+sd-jwt', '--tx-code'])
  ).split('\n');
  assert.match(printed[0], /^openid-credential-offer:\/\/\?credential_offer=/);
  const txCode = /^tx_code: (\d{6})$/.exec(printed[1])?.[1];
  assert.ok(txCode, printed.join('\n'));
  const wallet = newWallet();
  const { credentials } = await pickUp(wallet, printed[0], txCode);
  await VERIFIERS['dc+sd-jwt'](credentials[0], { issuer: app.url, type: 'birth', recordId: 123456789, wallet });
  const { rows } = await admin.query(
    `SELECT username, operation, path FROM ${schema}.audit_log WHERE path LIKE '%/offer' OR path = ` +
      `'/v1/wallet/credential' ORDER BY id`,
  );
  assert.deepEqual(
    rows.map((row) => [row.username, row.operation, row.path]),
    [
      ['lev-api credentials offer', 'credential', '/v1/credentials/birth/123456789/offer'],
      ['lev-api credentials offer', 'credential', '/v1/wallet/credential'],
    ],
  );

  await mistake(['offer', '--type', 'unicorn', '--id', '1', '--format', 'dc+sd-jwt'], /--type must be one of birth/);
  await mistake(['offer', '--type', 'birth', '--id', 'abc', '--format', 'dc+sd-jwt'], /--id must be a system number/);
  await mistake(
    ['offer', '--type', 'birth', '--id', '123456789', '--format', 'pdf'],
    /--format pdf is not issued for birth/,
  );
  await mistake(
    ['offer', '--type', 'birth', '--id', '123456789', '--format', 'dc+sd-jwt'],
    /DATABASE_URL is required/,
    { CREDENTIAL_ISSUER_URL: app.url },
  );
  const blocked = await runCli(
    t,
    ['credentials', 'offer', '--type', 'birth', '--id', '999999020', '--format', 'dc+sd-jwt'],
    env,
  );
  assert.equal(blocked.code, 1, blocked.stderr);
  assert.match(blocked.stderr, /blocked/);
});
