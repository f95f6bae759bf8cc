/**
 * COPY rows written as bytes (store/copy-data.ts), read back by a real server: the binary format's
 * numbers at their limits and text as it is, the text format's rows as they are, and a buffer used
 * again after it has grown.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CopyData } from '../../src/store/copy-data.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import { TEST_DATABASE_URL, emptySchema, postgresAvailable } from '../helper.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server at TEST_DATABASE_URL';

async function driverIn(t: Parameters<typeof emptySchema>[0]) {
  let driver: ReturnType<typeof openPostgres> | undefined;
  const { schema } = await emptySchema(t, () => driver?.close());
  driver = openPostgres({
    url: TEST_DATABASE_URL,
    schema,
    applicationName: schema,
    poolSize: 1,
    statementTimeoutMs: 10_000,
  });
  return driver;
}

const NUMBERS = [
  0,
  1,
  -1,
  2 ** 31,
  2 ** 32 - 1,
  2 ** 32,
  -(2 ** 32),
  4_503_599_627_370_496,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];
const TEXTS = [
  '',
  'plain',
  'tab\there, line\nfeed\r and \\ backslash',
  'Zoë Łukasz 😀 \u{10FFFF}',
  '{"a": [1, "b"]}',
  'x'.repeat(100_000),
];

test('binary rows: bigints at their limits and text as it is, in a buffer used again after it grew', {
  skip,
}, async (t) => {
  const driver = await driverIn(t);
  await driver.exec('CREATE TABLE n (at bigint NOT NULL, n bigint NOT NULL, s text NOT NULL, j json NOT NULL)');
  const rows = new CopyData('binary', 16);
  for (const round of [0, 1]) {
    rows.clear();
    NUMBERS.forEach((n, i) =>
      rows
        .row(4)
        .int8(round * 100 + i)
        .int8(n)
        .string(TEXTS[i % TEXTS.length])
        .string(JSON.stringify({ n: String(n) })),
    );
    assert.equal(rows.rowCount, NUMBERS.length);
    await driver.transaction((tx) => tx.copyFrom!('COPY n (at, n, s, j) FROM STDIN WITH (FORMAT binary)', rows.data()));
  }
  const read = await driver.query<{ at: number; n: string; s: string; j: { n: string } }>(
    'SELECT at::int AS at, n::text AS n, s, j FROM n ORDER BY at',
  );
  assert.deepEqual(
    read,
    [0, 1].flatMap((round) =>
      NUMBERS.map((n, i) => ({ at: round * 100 + i, n: String(n), s: TEXTS[i % TEXTS.length], j: { n: String(n) } })),
    ),
  );
});

test('text rows: sent as written, the server reading them as text COPY does', { skip }, async (t) => {
  const driver = await driverIn(t);
  await driver.exec('CREATE TABLE k (id bigint NOT NULL, date date NOT NULL, name text NOT NULL)');
  const rows = new CopyData('text', 8);
  rows.textRow('1\t2024-02-29\tZoë Ashworth\n');
  rows.textRow('2\t0001-01-01\ttab\\tescaped\n');
  assert.equal(rows.rowCount, 2);
  await driver.transaction((tx) => tx.copyFrom!('COPY k (id, date, name) FROM STDIN', rows.data()));
  assert.deepEqual(await driver.query('SELECT id::int AS id, date::text AS date, name FROM k ORDER BY id'), [
    { id: 1, date: '2024-02-29', name: 'Zoë Ashworth' },
    { id: 2, date: '0001-01-01', name: 'tab\tescaped' },
  ]);
  // A date the server refuses fails the COPY: the text format leaves the checking to it.
  rows.clear();
  rows.textRow('3\t2023-02-29\tno such day\n');
  await assert.rejects(
    driver.transaction((tx) => tx.copyFrom!('COPY k (id, date, name) FROM STDIN', rows.data())),
    /date/,
  );
});
