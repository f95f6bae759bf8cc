/**
 * Close-match candidates, on every backend: found through the close-match keys each store keeps
 * (worked out when a record is written), ranked by the keys shared; and on PostgreSQL, the keys of
 * records stored before migration 8 filled in by `migrate`, resuming where an interrupted run stopped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CandidatePass, candidatePasses, queryKeys, suggestionKeys } from '../../src/match/keys.ts';
import { BackfillPendingError, assertSchemaCurrent, migrate } from '../../src/store/migrations.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { followSuggestionIndexes } from '../../src/store/followed-suggestion-index.ts';
import { backfillSuggestionKeys } from '../../src/store/suggestion-backfill.ts';
import type { SearchKey, SuggestionCandidates } from '../../src/model/records.ts';
import { unpackCandidates } from '../../src/match/candidates.ts';
import { emptyStore, storeKinds } from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';
import { BIRTHS, birth, query } from './close-match-births.ts';

// The indexes held in the service on PostgreSQL (SUGGESTION_INDEX=service) are the memory store's,
// compared with the database's below, and through the routes by the close-match suites.
for (const kind of await storeKinds()) {
  test(`close-match candidates (${kind})`, async (t) => {
    const store = await emptyStore(t, kind);
    await store.upsert('birth', BIRTHS);
    const capped = (q: SearchKey, limit: number): CandidatePass[] =>
      candidatePasses(q).map((pass) => ({ ...pass, limit }));
    const ids = async (q: SearchKey, limit = 10) => (await store.suggestionCandidates('birth', capped(q, limit))).ids;

    await t.test('each single corruption finds the record, with the search keys it is scored by', async () => {
      assert.deepEqual((await ids(query('Smyth', 'Bill', '2010-03-04')))[0], 2001, 'sound-alike surname, nickname');
      assert.deepEqual((await ids(query('Smith', 'William', '2010-04-03')))[0], 2001, 'day and month exchanged');
      assert.deepEqual((await ids(query('Thomson', 'Margaret', '1990-11-20')))[0], 2002, 'misspelt surname');
      assert.deepEqual((await ids(query('Thompson', 'Peggy', '1990-11-21')))[0], 2002, 'nickname and a day out');
      assert.deepEqual(
        (await ids(query('Lowe', 'Kathryn', '2001-06-30')))[0],
        2003,
        'part of the surname, a forename alike in sound',
      );
      assert.deepEqual((await ids(query('Catherine', 'Fairfax-Lowe', '2001-06-30')))[0], 2003, 'names swapped');
      const [candidate] = unpackCandidates(
        await store.suggestionCandidates('birth', capped(query('Marsden', 'George', '2011-03-14'), 5)),
      );
      assert.equal(candidate.id, 2004, 'the year mistyped');
      assert.deepEqual(
        await ids(query('Merridew', 'Daniel', '1990-11-20')),
        [2002],
        'both names wrong, the date right',
      );
      assert.deepEqual(
        await ids(query('Thompson', 'Margaret', '1998-01-02')),
        [2002],
        'the names right, the date far out',
      );
      assert.deepEqual(
        await ids(query('Jones', 'Catherine', '2001-06-03')),
        [2003],
        'a married surname, the date near',
      );
      assert.deepEqual(candidate.keys, BIRTHS[3].keys);
    });

    await t.test(
      'the union of the passes, each ranked by the keys shared, then by id; truncated when a cap bites',
      async () => {
        // Born that day: all three are candidates by the date. With a cap of one, the date pass keeps
        // the first by id, the name passes George Marsden, who shares most keys with the query.
        assert.deepEqual(await ids(query('Marsden', 'George', '2010-03-14')), [2004, 2005, 2006]);
        const one = await store.suggestionCandidates('birth', capped(query('Marsden', 'George', '2010-03-14'), 1));
        assert.deepEqual([one.ids, one.truncated], [[2004], true]);
        const enough = await store.suggestionCandidates('birth', capped(query('Marsden', 'George', '2010-03-14'), 3));
        assert.equal(enough.truncated, false);
        assert.deepEqual(await ids(query('Merridew', 'Daniel', '1950-01-01')), []);
      },
    );

    await t.test('a changed record is found by its new keys only', async () => {
      await store.upsert('birth', [birth(2006, 'Harry', 'Marsden', '1931-01-01')]);
      assert.deepEqual(await ids(query('Marsden', 'George', '2010-03-14')), [2004, 2005]);
      assert.deepEqual(await ids(query('Marsden', 'Harry', '1931-01-01')), [2006]);
    });

    await t.test(
      "the register's counts are kept by each write: records, and each surname and first forename",
      async () => {
        assert.deepEqual(await store.registerCounts('birth', 'marsden', 'harry'), {
          records: 6,
          surname: 2,
          forename: 1,
        });
        await store.upsert('birth', [
          birth(2006, 'Harold', 'Priddy', '1931-01-01'),
          birth(2007, 'Harry James', 'Marsden', '1999-01-01'),
        ]);
        assert.deepEqual(
          await store.registerCounts('birth', 'marsden', 'harry'),
          { records: 7, surname: 2, forename: 1 },
          'one Marsden renamed, one added',
        );
        assert.deepEqual(await store.registerCounts('birth', 'priddy', 'harold'), {
          records: 7,
          surname: 2,
          forename: 1,
        });
        assert.deepEqual(await store.registerCounts('birth', 'nobody', 'none'), {
          records: 7,
          surname: 0,
          forename: 0,
        });
        await store.upsert('birth', [birth(2006, 'Harry', 'Marsden', '1931-01-01')]);
      },
    );

    await t.test('records are read by id, in the order asked, undefined for an id no record has', async () => {
      const texts = await store.lookupManyJson('birth', [2003, 9999, 2001]);
      assert.deepEqual(
        texts.map((text) => text && (JSON.parse(text) as { id: number }).id),
        [2003, undefined, 2001],
      );
      assert.deepEqual(await store.lookupManyJson('birth', []), []);
    });
  });
}

if ((await storeKinds()).includes('postgres')) {
  test('postgres: migrate fills in the keys of records stored before them, resuming an interrupted run', async (t) => {
    const store = await emptyStore(t, 'postgres');
    if (store.kind !== 'postgres') throw new Error('a postgres store');
    const { driver } = store;
    // Ids of three digits and of four, so that ids ordered as text (1000 before 990) would show.
    const many = Array.from({ length: 23 }, (_, i) =>
      birth(990 + i, i % 2 ? 'Ann' : 'Bill', `Surname${String.fromCharCode(97 + i)}`, '2005-05-05'),
    );
    await store.upsert('birth', [...BIRTHS, ...many]);
    const t8 = tableNames('birth');
    const written = await driver.query<{ key: string; id: string }>(
      `SELECT key, id::text AS id FROM ${t8.suggestionKeys} ORDER BY key, id`,
    );
    assert.equal(new Set(written.map((row) => row.id)).size, 29);
    assert.deepEqual(
      written.filter((row) => row.id === '2001').map((row) => row.key),
      suggestionKeys(BIRTHS[0].keys).sort((a, b) => Number(a) - Number(b)),
      'a load writes the keys the one function gives',
    );

    // As a database migrated before version 8 would be: records without keys, the backfill to do.
    await driver.exec(`TRUNCATE ${t8.suggestionKeys}; UPDATE suggestion_key_backfill SET after_id = -1, done = false`);
    await assert.rejects(assertSchemaCurrent(driver, records), BackfillPendingError, 'not ready until filled in');

    let batches = 0;
    await assert.rejects(
      backfillSuggestionKeys(driver, {
        batch: 5,
        onProgress: () => {
          if (++batches === 2) throw new Error('interrupted');
        },
      }),
      /interrupted/,
    );
    const [{ after }] = await driver.query<{ after: string }>(
      "SELECT after_id::text AS after FROM suggestion_key_backfill WHERE type = 'birth'",
    );
    assert.equal(after, '999', 'two batches of five committed, in id order');

    assert.deepEqual(await migrate(driver, { batch: 5 }), [], 'no migration left; the backfill resumes');
    const filled = await driver.query<{ key: string; id: string }>(
      `SELECT key, id::text AS id FROM ${t8.suggestionKeys} ORDER BY key, id`,
    );
    assert.deepEqual(filled, written);
    await assertSchemaCurrent(driver, records);
    const [{ done }] = await driver.query<{ done: boolean }>(
      'SELECT bool_and(done) AS done FROM suggestion_key_backfill',
    );
    assert.equal(done, true);
  });

  test(
    'postgres: an index held in the service is built from what is stored, follows the feed, and is built ' +
      'again after a gap',
    async (t) => {
      const store = await emptyStore(t, 'postgres');
      if (store.kind !== 'postgres') throw new Error('a postgres store');
      const many = Array.from({ length: 300 }, (_, i) =>
        birth(
          4000 + i,
          ['Ann', 'Bill', 'Cara'][i % 3],
          `Marsden${'abcdefghij'[i % 10]}`,
          `2010-03-${String(1 + (i % 28)).padStart(2, '0')}`,
        ),
      );
      await store.upsert('birth', [...BIRTHS, ...many]);
      // Events read once with a gap before them, as if pruned before the follower came to them.
      let gaps = 0;
      const feed = {
        ...store.events,
        read: async (...args: Parameters<typeof store.events.read>) => {
          const page = await store.events.read(...args);
          if (gaps === 1 && page.events.length) {
            gaps++;
            return { ...page, events: page.events.map((event) => ({ ...event, position: event.position + 1 })) };
          }
          return page;
        },
      };
      const errors: string[] = [];
      const held = followSuggestionIndexes(store.driver, feed, ['birth', 'death'], (error) =>
        errors.push(error.message),
      );
      t.after(() => held.stop());
      const head = async () => (await store.events.bounds(new Date(0))).head;
      await held.reached(await head());
      const queries = [
        query('Marsden', 'George', '2010-03-14'),
        query('Marsdenc', 'Ann', '2010-03-03'),
        query('Smyth', 'Bill', '2010-03-04'),
        query('Thompson', 'Peggy', '1990-11-21'),
      ];
      const same = async (why: string) => {
        for (const q of queries) {
          const passes = candidatePasses(q).map((pass) => ({ ...pass, limit: 20 }));
          const mine = held.candidates('birth', passes);
          assert.ok(mine, 'built');
          const theirs = await store.suggestionCandidates('birth', passes);
          const sorted = (found: SuggestionCandidates) => [unpackCandidates(found), found.truncated];
          assert.deepEqual(sorted(mine), sorted(theirs), `${why}: ${q.surname} ${q.forenames} ${q.date}`);
          const forename = q.forenames.split(' ')[0];
          assert.deepEqual(
            held.counts('birth', q.surname, forename),
            await store.registerCounts('birth', q.surname, forename),
            `${why}: the counts of ${q.surname}, ${forename}`,
          );
        }
      };
      await same('built from the records stored');

      gaps = 1;
      await store.upsert('birth', [
        birth(2004, 'George', 'Marsden', '1931-01-01'),
        birth(5000, 'George', 'Marsden', '2010-03-14'),
      ]);
      await held.reached(await head());
      assert.equal(gaps, 2, 'the gap was read');
      assert.match(errors.join('\n'), /holds no events from/);
      await same('built again after a gap');

      await store.upsert('birth', [
        birth(2004, 'George', 'Marsden', '2010-03-14'),
        birth(5001, 'Georgina', 'Marsden', '2010-03-14'),
      ]);
      await held.reached(await head());
      await same('a new record and a changed one followed');
      assert.ok(
        held.candidates('birth', candidatePasses(query('Marsden', 'George', '2010-03-14')))!.ids.includes(5001),
      );
      assert.equal(
        held.candidates('marriage', candidatePasses(query('Marsden', 'George', '2010-03-14'))),
        undefined,
        'a type not followed is left to the database',
      );
      assert.equal(held.counts('marriage', 'marsden', 'george'), undefined);
      assert.deepEqual(held.state, { built: true, position: await head() });
    },
  );

  test('postgres: candidates are found through the key index, not by reading the records', async (t) => {
    const store = await emptyStore(t, 'postgres');
    if (store.kind !== 'postgres') throw new Error('a postgres store');
    const { driver } = store;
    const t8 = tableNames('birth');
    // Enough records, over enough days, that an index is the planner's choice, as in a register.
    const batch = Array.from({ length: 40_000 }, (_, i) =>
      birth(
        10_000 + i,
        ['Ann', 'Bill', 'Cara', 'Dan', 'Eve', 'Finn', 'Gus'][i % 7],
        `Name${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + ((i >> 5) % 26))}`,
        `19${String(50 + (i % 50))}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
      ),
    );
    await store.upsert('birth', batch);
    await driver.exec(`ANALYZE ${t8.records}; ANALYZE ${t8.suggestionKeys}`);
    const rows = await driver.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT k.id, count(*) FROM ${t8.suggestionKeys} k WHERE k.key = ANY($1::bigint[]) GROUP BY k.id`,
      [queryKeys(query('Name7', 'Ann', '2017-08-17'))],
    );
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    assert.match(
      plan,
      new RegExp(`Index (Only )?Scan using ${t8.suggestionKeys}_pkey|Bitmap Index Scan on ${t8.suggestionKeys}_pkey`),
      plan,
    );
  });
}
