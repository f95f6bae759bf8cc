/**
 * The audit report's two readings, one contract on both backends: accesses per user per day, and
 * the drill-down to one user's entries (exact username, UTC days, filters, newest first, limit and
 * truncation). Entries are written at chosen instants, as the chain writes them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createChainWriter } from '../../src/audit/chain-writer.ts';
import { postgresBackend } from '../../src/backend/postgres.ts';
import { openPostgres } from '../../src/store/pg-driver.ts';
import type { AuditEntry, AuditReport, EntriesFilter } from '../../src/model/audit.ts';
import { ENTRIES_LIMIT, MAX_ENTRIES_LIMIT } from '../../src/model/audit.ts';
import { TEST_DATABASE_URL, type TestStore, emptyStore, storeKinds } from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';

const entry = (username: string, n: number, more: Partial<AuditEntry> = {}): AuditEntry => ({
  username,
  client: 'tests',
  groups: ['/g'],
  dataset: 'birth',
  operation: 'search',
  path: '/v1/registration/birth',
  query: `surname=S${n}&forenames=F&dateOfBirth=2008-08-08`,
  results: n % 3,
  requestId: `req-${username}-${n}`,
  ...more,
});

/** Writes a batch stamped `at`, as each backend's trail does. */
function writerOf(store: TestStore): (entries: readonly AuditEntry[], at: string) => Promise<void> {
  if (store.kind === 'memory') return (entries, at) => store.trail.append(entries, at);
  const write = createChainWriter(store.driver);
  return (entries, at) => write(entries, at);
}

/** Usernames a substring match would mix up with `ann`, and one a wildcard would. */
const NEIGHBOURS = ['ann@dwp', 'joann', 'Ann', 'an_', 'ann '];

/** Around the day of 2026-11-24 (UTC): its first and last milliseconds, and those either side. */
async function seeded(store: TestStore) {
  const write = writerOf(store);
  await write([entry('ann', 1)], '2026-11-23T23:59:59.999Z');
  await write([entry('ann', 2)], '2026-11-24T00:00:00.000Z');
  await write(
    [entry('ann', 3, { operation: 'lookup', path: '/v1/registration/birth/123456789', query: '', results: 1 })],
    '2026-11-24T09:30:00.000Z',
  );
  // One batch: the same instant, written in this order.
  await write(
    [
      entry('ann', 4, { dataset: 'death', path: '/v1/registration/death' }),
      entry('ann', 5, { operation: 'verify', path: '/v1/verification/birth' }),
    ],
    '2026-11-24T12:00:00.000Z',
  );
  for (const [i, name] of NEIGHBOURS.entries()) await write([entry(name, 10 + i)], '2026-11-24T13:00:00.000Z');
  await write([entry('ann', 6)], '2026-11-24T23:59:59.999Z');
  await write([entry('ann', 7)], '2026-11-25T00:00:00.000Z');
}

const DAY = { from: '2026-11-24', to: '2026-11-24' } as const;
const numbers = async (report: AuditReport, filter: EntriesFilter) =>
  (await report.entries(filter)).entries.map((e) => Number(e.requestId.split('-').pop()));

for (const kind of await storeKinds()) {
  describe(`audit report readings on the ${kind} store`, () => {
    test('the report counts each UTC day, both bounds inclusive; its user filter is a substring', async (t) => {
      const store = await emptyStore(t, kind);
      await seeded(store);
      const day = { '2026-11-24': 1 };
      assert.deepEqual(await store.report.userActivity({ ...DAY, user: 'ann' }), {
        ann: { '2026-11-24': 5 },
        'ann ': day,
        'ann@dwp': day,
        joann: day,
      });
      assert.deepEqual((await store.report.userActivity({ from: '2026-11-23', to: '2026-11-25', user: 'ann' })).ann, {
        '2026-11-23': 1,
        '2026-11-24': 5,
        '2026-11-25': 1,
      });
    });

    test(
      "the drill-down lists one exact username's entries of the days asked (UTC, inclusive), newest " + 'first',
      async (t) => {
        const store = await emptyStore(t, kind);
        await seeded(store);
        assert.deepEqual(await numbers(store.report, { ...DAY, user: 'ann' }), [6, 5, 4, 3, 2]);
        assert.deepEqual(
          await numbers(store.report, { from: '2026-11-23', to: '2026-11-25', user: 'ann' }),
          [7, 6, 5, 4, 3, 2, 1],
        );
        assert.deepEqual(
          await numbers(store.report, { from: '2026-11-25', to: '2026-11-24', user: 'ann' }),
          [],
          'from after to: nothing',
        );
        for (const [i, name] of NEIGHBOURS.entries())
          assert.deepEqual(await numbers(store.report, { ...DAY, user: name }), [10 + i], name);
        for (const name of ['an', 'nn', 'ANN', '%', 'an%', ''])
          assert.deepEqual(
            await numbers(store.report, { ...DAY, user: name }),
            [],
            `${JSON.stringify(name)} is nobody's whole username`,
          );
      },
    );

    test('each entry as written, without its hash', async (t) => {
      const store = await emptyStore(t, kind);
      await seeded(store);
      const page = await store.report.entries({ ...DAY, user: 'ann', operation: 'lookup' });
      assert.deepEqual(page, {
        truncated: false,
        entries: [
          {
            at: '2026-11-24T09:30:00.000Z',
            username: 'ann',
            client: 'tests',
            groups: ['/g'],
            dataset: 'birth',
            operation: 'lookup',
            path: '/v1/registration/birth/123456789',
            query: '',
            results: 1,
            requestId: 'req-ann-3',
          },
        ],
      });
    });

    test('operation and dataset narrow it, as they narrow the report', async (t) => {
      const store = await emptyStore(t, kind);
      await seeded(store);
      assert.deepEqual(await numbers(store.report, { ...DAY, user: 'ann', operation: 'search' }), [6, 4, 2]);
      assert.deepEqual(await numbers(store.report, { ...DAY, user: 'ann', dataset: 'death' }), [4]);
      assert.deepEqual(await numbers(store.report, { ...DAY, user: 'ann', operation: 'verify', dataset: 'death' }), []);
    });

    test('at most the limit, saying when more existed', async (t) => {
      const store = await emptyStore(t, kind);
      await seeded(store);
      const page = (limit?: number) => store.report.entries({ ...DAY, user: 'ann', limit });
      assert.deepEqual(await numbers(store.report, { ...DAY, user: 'ann', limit: 2 }), [6, 5]);
      assert.equal((await page(2)).truncated, true);
      assert.equal((await page(4)).truncated, true);
      assert.deepEqual(
        { n: (await page(5)).entries.length, truncated: (await page(5)).truncated },
        { n: 5, truncated: false },
        'exactly the limit: not cut',
      );
      assert.equal((await page(0)).entries.length, 1, 'below 1 counts as 1');

      const write = writerOf(store);
      const many = Array.from({ length: MAX_ENTRIES_LIMIT + 1 }, (_, i) => entry('busy', i));
      await write(many, '2026-11-24T15:00:00.000Z');
      const busy = (limit?: number) => store.report.entries({ ...DAY, user: 'busy', limit });
      assert.deepEqual(
        { n: (await busy()).entries.length, truncated: (await busy()).truncated },
        { n: ENTRIES_LIMIT, truncated: true },
        'the default limit',
      );
      const most = await busy(MAX_ENTRIES_LIMIT + 500);
      assert.deepEqual(
        { n: most.entries.length, truncated: most.truncated },
        { n: MAX_ENTRIES_LIMIT, truncated: true },
        'never more than the maximum',
      );
      assert.equal(most.entries[0].requestId, `req-busy-${MAX_ENTRIES_LIMIT}`, 'the last written of a batch first');
    });

    test('a row of the report and its drill-down count the same entries', async (t) => {
      const store = await emptyStore(t, kind);
      await seeded(store);
      const range = { from: '2026-11-23', to: '2026-11-25' };
      const report = await store.report.userActivity(range);
      assert.deepEqual(Object.keys(report).sort(), ['Ann', 'an_', 'ann', 'ann ', 'ann@dwp', 'joann'].sort());
      for (const [user, days] of Object.entries(report)) {
        for (const [day, count] of Object.entries(days)) {
          const { entries } = await store.report.entries({ from: day, to: day, user });
          assert.equal(entries.length, count, `${user} on ${day}`);
          assert.ok(entries.every((e) => e.at.startsWith(day)));
        }
      }
    });

    test("days are UTC days whatever the database session's time zone", {
      skip: kind === 'postgres' ? false : 'a PostgreSQL session setting',
    }, async (t) => {
      const store = await emptyStore(t, kind);
      if (store.kind !== 'postgres') return;
      await seeded(store);
      // The same schema, through connections whose TimeZone is 14 hours ahead of UTC.
      const [{ schema }] = await store.driver.query<{ schema: string }>('SELECT current_schema() AS schema');
      const driver = openPostgres({
        url: TEST_DATABASE_URL,
        schema,
        poolSize: 1,
        statementTimeoutMs: 10_000,
        settings: { TimeZone: 'Pacific/Kiritimati' },
      });
      t.after(() => driver.close());
      const ahead = postgresBackend(driver, records).report;
      assert.deepEqual(await numbers(ahead, { ...DAY, user: 'ann' }), [6, 5, 4, 3, 2]);
      assert.deepEqual(await ahead.userActivity(DAY), await store.report.userActivity(DAY));
      assert.deepEqual((await ahead.userActivity({ ...DAY, user: 'joann' })).joann, { '2026-11-24': 1 });
    });
  });
}
