/**
 * The audit table's chains, one per writer, on the real PostgreSQL server: the chain written before
 * writers continues into theirs; a row changed, deleted, inserted or moved in any writer's part is
 * found; signed checkpoints bind every writer's head, so a rewrite before a checkpoint, or the
 * loss of a writer's last entries, is found too, and a checkpoint kept elsewhere proves it even
 * when the stored checkpoints are gone.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { createChainWriter } from '../../src/audit/chain-writer.ts';
import { GENESIS_HASH, chainHash } from '../../src/audit/chain.ts';
import { checkpointFault, checkpointSigner, newSigningKey, parseCheckpoints } from '../../src/audit/checkpoint.ts';
import { takeCheckpoint } from '../../src/audit/checkpoint-writer.ts';
import { verifyAuditChain } from '../../src/audit/verify.ts';
import { checksum, migrate, splitStatements, loadMigrations } from '../../src/store/migrations.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import type { SqlDriver } from '../../src/store/driver.ts';
import type { AuditEntry, Checkpoint } from '../../src/model/audit.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';

const migrations = await loadMigrations();

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

const entry = (who: string, i: number): AuditEntry => ({
  username: who,
  client: 'c',
  groups: ['g'],
  dataset: 'birth',
  operation: i % 2 ? 'lookup' : 'search',
  path: `/v1/registration/birth/${i}`,
  query: '',
  results: 1,
  requestId: `${who}-${i}`,
  records: [{ type: 'birth', id: 1000 + i }],
});

async function database(t: TestContext, upTo?: number): Promise<SqlDriver> {
  let driver: SqlDriver | undefined;
  const { schema } = await emptySchema(t, () => driver?.close());
  driver = openPostgres({ url: TEST_DATABASE_URL, schema, poolSize: 4, statementTimeoutMs: 10_000 });
  if (upTo === undefined) await migrate(driver);
  else {
    // The schema as a release that knew only the migrations up to `upTo` left it.
    await driver.query(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at ' +
        'timestamptz NOT NULL DEFAULT now(), checksum text)',
    );
    for (const m of migrations.filter((m) => m.version <= upTo)) {
      for (const sql of splitStatements(m.sql)) await driver.query(sql);
      await driver.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        checksum(m),
      ]);
    }
  }
  return driver;
}

/** Two writers, `a` and `b`, ten entries each, in batches of two. */
async function twoWriters(driver: SqlDriver) {
  const writers = { a: createChainWriter(driver, 'a'), b: createChainWriter(driver, 'b') };
  for (let i = 0; i < 10; i += 2) {
    await Promise.all(Object.entries(writers).map(([name, write]) => write([entry(name, i), entry(name, i + 1)])));
  }
}

/** As an owner able to set the triggers aside: only such a one can tamper, and the chains still show it. */
async function tamper(driver: SqlDriver, ...statements: string[]) {
  await driver.query('ALTER TABLE audit_log DISABLE TRIGGER USER');
  await driver.query('ALTER TABLE audit_checkpoint DISABLE TRIGGER USER');
  for (const sql of statements) await driver.query(sql);
}

const brokenBecause = async (driver: SqlDriver, pattern: RegExp, witnessed: readonly Checkpoint[] = []) => {
  const result = await verifyAuditChain(driver, { witnessed });
  assert.equal(result.ok, false, 'the tampering is found');
  assert.match(result.ok ? '' : result.reason, pattern);
};

test("the chain written before writers continues into every writer's, and verify checks both", { skip }, async (t) => {
  const driver = await database(t, 5);
  // Three entries as the single chain had them (version 5: no writer, chained in id order).
  let previous = GENESIS_HASH;
  for (let i = 0; i < 3; i++) {
    const e = entry('old', i);
    const at = `2026-01-0${i + 1}T00:00:00.000Z`;
    previous = chainHash(previous, at, { ...e, records: undefined });
    await driver.query(
      `INSERT INTO audit_log (at, username, client, groups, dataset, operation, path, query, results, ` +
        `request_id, hash) VALUES ($1, $2, 'c', '{g}', 'birth', $3, $4, '', 1, $5, $6)`,
      [at, e.username, e.operation, e.path, e.requestId, previous],
    );
  }
  await migrate(driver);
  const [origin] = await driver.query<{ head: string; entries: string }>(
    'SELECT head, entries::text AS entries FROM audit_chain_origin',
  );
  assert.deepEqual(origin, { head: previous, entries: '3' });
  await twoWriters(driver);
  assert.deepEqual(await verifyAuditChain(driver), { ok: true, entries: 23, writers: 2, checkpoints: 0 });

  // Rows of no writer break the check new rows pass: a tamperer drops it as well.
  await tamper(
    driver,
    'ALTER TABLE audit_log DROP CONSTRAINT audit_log_writer_chain',
    "UPDATE audit_log SET username = 'someone' WHERE writer IS NULL AND request_id = 'old-1'",
  );
  await brokenBecause(driver, /does not follow from the entry before it/);
  await tamper(
    driver,
    "UPDATE audit_log SET username = 'old' WHERE writer IS NULL AND request_id = 'old-1'",
    "DELETE FROM audit_log WHERE request_id = 'old-2'",
  );
  // The last entry of the old chain gone: no hash before it breaks, but the origin recorded where it ended.
  await brokenBecause(driver, /holds 2 entries .* not the 3/);
});

for (const [what, statements, reason] of [
  ['changed', ["UPDATE audit_log SET results = 7 WHERE writer = 'b' AND seq = 5"], /writer b, #5\) does not follow/],
  ['deleted', ["DELETE FROM audit_log WHERE writer = 'b' AND seq = 5"], /writer b, #6\) comes after #4/],
  [
    'given a record it did not disclose',
    ["UPDATE audit_log SET records = '{birth:1}' WHERE writer = 'a' AND seq = 3"],
    /writer a, #3\) does not follow/,
  ],
  [
    'inserted (the entries after it renumbered)',
    [
      "UPDATE audit_log SET seq = seq + 100 WHERE writer = 'b' AND seq >= 5",
      "UPDATE audit_log SET seq = seq - 99 WHERE writer = 'b' AND seq >= 105",
      `INSERT INTO audit_log (at, username, client, groups, dataset, operation, path, query, results, ` +
        `request_id, writer, seq, hash)
         SELECT at, username, client, groups, dataset, operation, path, query, results, 'forged', writer, 5, ` +
        `hash FROM audit_log WHERE writer = 'b' AND seq = 4`,
    ],
    /writer b, #5\) does not follow/,
  ],
  [
    'reordered',
    [
      "UPDATE audit_log SET seq = 100 WHERE writer = 'a' AND seq = 3",
      "UPDATE audit_log SET seq = 3 WHERE writer = 'a' AND seq = 4",
      "UPDATE audit_log SET seq = 4 WHERE writer = 'a' AND seq = 100",
    ],
    /writer a, #3\) does not follow/,
  ],
  [
    'moved to another writer',
    ["UPDATE audit_log SET writer = 'a', seq = 11 WHERE writer = 'b' AND seq = 10"],
    /writer a, #11\) does not follow/,
  ],
] as const) {
  test(`an entry ${what} in a writer's part is found`, { skip }, async (t) => {
    const driver = await database(t);
    await twoWriters(driver);
    assert.deepEqual(await verifyAuditChain(driver), { ok: true, entries: 20, writers: 2, checkpoints: 0 });
    await tamper(driver, ...statements);
    await brokenBecause(driver, reason);
  });
}

test("a checkpoint binds every writer's head: the last entries of a writer, or a whole writer, removed after " +
  'it are found', {
  skip,
}, async (t) => {
  const driver = await database(t);
  await twoWriters(driver);
  const signer = checkpointSigner(newSigningKey());
  const checkpoint = await takeCheckpoint(driver, signer);
  assert.ok(checkpoint);
  assert.equal(checkpoint.entries, 20);
  assert.deepEqual(
    checkpoint.heads.map((h) => [h.writer, h.seq]),
    [
      ['a', 10],
      ['b', 10],
    ],
  );
  assert.equal(await takeCheckpoint(driver, signer, 60_000), undefined, 'one taken lately: none taken again');
  assert.equal(await takeCheckpoint(driver, signer), undefined, 'the trail has not grown: none taken');
  await createChainWriter(driver, 'c')([entry('c', 0)]);
  const second = await takeCheckpoint(driver, signer);
  assert.equal(second?.previous, checkpoint.hash);
  assert.deepEqual(await verifyAuditChain(driver), { ok: true, entries: 21, writers: 3, checkpoints: 2 });

  await tamper(driver, "DELETE FROM audit_log WHERE writer = 'b' AND seq >= 9");
  await brokenBecause(driver, /names entry 10 of writer b, whose chain ends at 8/);
  await tamper(driver, "DELETE FROM audit_log WHERE writer = 'b'");
  await brokenBecause(driver, /names entry 10 of writer b, whose chain ends at 0/);
});

test('a checkpoint kept elsewhere proves a rewrite before it, even with the stored checkpoints gone', {
  skip,
}, async (t) => {
  const driver = await database(t);
  await twoWriters(driver);
  const signer = checkpointSigner(newSigningKey());
  const kept = parseCheckpoints(JSON.stringify([await takeCheckpoint(driver, signer)]));
  assert.equal(checkpointFault(kept[0]), undefined);
  assert.deepEqual(await verifyAuditChain(driver, { witnessed: kept }), {
    ok: true,
    entries: 20,
    writers: 2,
    checkpoints: 1,
  });

  // The whole of writer a's chain rewritten from its third entry on, each hash made to follow: the
  // chains verify on their own, and the stored checkpoint is removed too.
  const rows = await driver.query<{ seq: string; at: string; hash: string }>(
    `SELECT seq::text AS seq, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at, hash ` +
      `FROM audit_log WHERE writer = 'a' ORDER BY audit_log.seq`,
  );
  let previous = rows[1].hash;
  const rewrites = [];
  for (const row of rows.slice(2)) {
    const seq = Number(row.seq);
    const altered = { ...entry('a', seq - 1), username: 'not-a' };
    previous = chainHash(previous, row.at, altered);
    rewrites.push(`UPDATE audit_log SET username = 'not-a', hash = '${previous}' WHERE writer = 'a' AND seq = ${seq}`);
  }
  await tamper(driver, ...rewrites);
  await brokenBecause(driver, /writer a, #10\) is not the entry the stored checkpoint .* names there/);
  await tamper(driver, 'DELETE FROM audit_checkpoint');
  assert.equal((await verifyAuditChain(driver)).ok, true, 'without a checkpoint, a consistent rewrite cannot be told');
  await brokenBecause(driver, /writer a, #10\) is not the entry the given checkpoint .* names there/, kept);

  // A checkpoint whose statement was changed after signing is not taken at its word.
  const forged = { ...kept[0], entries: 19 };
  await brokenBecause(driver, /cannot be trusted: its hash does not match/, [forged]);
  const resigned = { ...kept[0], signature: signer.sign({ ...kept[0], at: '2020-01-01T00:00:00.000Z' }).signature };
  await brokenBecause(driver, /cannot be trusted: its signature is not valid/, [resigned]);
});

test(
  'AUDIT_SIGNING_KEY: an Ed25519 key in PKCS#8, PEM or base64 DER, signs; anything else is refused naming ' +
    'the setting',
  async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { ConfigError } = await import('../../src/errors.ts');
    const { testConfig } = await import('../helper.ts');
    const key = generateKeyPairSync('ed25519').privateKey;
    const pem = key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const der = key.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    for (const text of [pem, der]) {
      const config = testConfig({ AUDIT_SIGNING_KEY: text, AUDIT_CHECKPOINT_S: '5' });
      assert.equal(config.auditCheckpoints.intervalMs, 5000);
      const signed = checkpointSigner(config.auditCheckpoints.signingKey!).sign({
        at: '2026-01-01T00:00:00.000Z',
        entries: 0,
        origin: GENESIS_HASH,
        heads: [],
        previous: GENESIS_HASH,
      });
      assert.equal(checkpointFault(signed), undefined);
      assert.equal(signed.publicKey, checkpointSigner(key).publicKey, 'the key given, not another');
    }
    assert.equal(testConfig().auditCheckpoints.signingKey, undefined, 'none configured: the backend makes one');
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    for (const bad of ['not a key', rsa])
      assert.throws(
        () => testConfig({ AUDIT_SIGNING_KEY: bad }),
        (error: Error) =>
          error instanceof ConfigError && /AUDIT_SIGNING_KEY: not an Ed25519 private key/.test(error.message),
      );
    assert.throws(() => testConfig({ AUDIT_CHECKPOINT_S: '0' }), /AUDIT_CHECKPOINT_S/);
  },
);
