/**
 * The close-match thread, on PostgreSQL (SUGGESTION_INDEX=service) and fed by the embedded store: the
 * close matches it finds are those found on the event loop, it follows what is written (the fed one
 * sees a write before any question sent after it), answers nothing while its index is being built
 * (and after an error, until it is built again), tells its errors, and stops.
 */
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { closeMatches } from '../../src/match/suggest.ts';
import { FEED_CHANNEL } from '../../src/store/postgres-write.ts';
import { createMemoryRecords } from '../../src/store/memory-records.ts';
import { type SuggestionThreadOptions, startSuggestionThreads } from '../../src/store/suggestion-thread.ts';
import type { SearchKey } from '../../src/model/records.ts';
import { TEST_DATABASE_URL, type TestStore, emptyStore, storeKinds } from '../helper.ts';
import { BIRTHS, birth, query } from './close-match-births.ts';
import { builtInTypes } from '../record-types.ts';

const QUERIES = [
  query('Smyth', 'Bill', '2010-03-04'),
  query('Thompson', 'Peggy', '1990-11-21'),
  query('Marsden', 'George', '2010-03-14'),
  query('Merridew', 'Daniel', '1990-11-20'),
];
const OPTIONS = { limit: 5, minProbability: 0.1 };

const postgres = (await storeKinds()).includes('postgres');

/** The store's close-match thread, once the store holds BIRTHS: it answers each query, as the event loop does. */
async function answersAsTheEventLoop(store: TestStore) {
  if (!store.suggestionIndexes) throw new Error('a store with its close-match thread');
  const thread = store.suggestionIndexes;
  await store.upsert('birth', BIRTHS);
  assert.equal(thread.state.built, true);
  for (const q of QUERIES) {
    const found = await thread.closeMatches('birth', q, OPTIONS);
    assert.ok(found, 'answered by the thread');
    assert.deepEqual(found, await closeMatches(store, 'birth', q, OPTIONS), `${q.surname} ${q.forenames} ${q.date}`);
  }
  return thread;
}

test('postgres: the close matches found on the thread are those found from the database, as written', {
  skip: !postgres && 'no PostgreSQL',
}, async (t) => {
  const store = await emptyStore(t, 'postgres', undefined, 'service');
  const thread = await answersAsTheEventLoop(store);
  assert.ok((await thread.closeMatches('birth', QUERIES[2], OPTIONS))!.matches.some((match) => match.id === 2006));
  await store.upsert('birth', [
    birth(2006, 'Harry', 'Marsden', '1931-01-01'),
    birth(2007, 'Georgina', 'Marsden', '2010-03-14'),
  ]);
  const ids = (await thread.closeMatches('birth', QUERIES[2], OPTIONS))!.matches.map((match) => match.id);
  assert.ok(ids.includes(2007) && !ids.includes(2006), `the writes followed: ${ids}`);
  // What fails on the thread fails the request, as it would on the event loop.
  await assert.rejects(thread.closeMatches('birth', undefined as unknown as SearchKey, OPTIONS));
  // The route's finder: the thread's answer.
  assert.deepEqual(
    await store.closeMatches!('birth', QUERIES[0], OPTIONS),
    await closeMatches(store, 'birth', QUERIES[0], OPTIONS),
  );
});

/**
 * A PostgreSQL store holding BIRTHS, and threads of its own on it (connections named by the store's
 * schema, so that a test finds them), their errors gathered; stopped when the test ends.
 */
async function threadsOnPostgres(t: TestContext, statementTimeoutMs: number, options?: SuggestionThreadOptions) {
  const store = await emptyStore(t, 'postgres');
  if (store.kind !== 'postgres') throw new Error('a postgres store');
  await store.upsert('birth', BIRTHS);
  const [{ schema }] = await store.driver.query<{ schema: string }>('SELECT current_schema() AS schema');
  const applicationName = `${schema}_thread`;
  const errors: string[] = [];
  const threads = startSuggestionThreads(
    ['birth'],
    { connection: { url: TEST_DATABASE_URL, schema, poolSize: 2, statementTimeoutMs, applicationName } },
    (error) => errors.push(error.message),
    options,
  );
  t.after(() => threads.stop());
  const head = async () => (await store.events.bounds(new Date(0))).head;
  return { store, threads, errors, applicationName, head };
}

test('postgres: the thread answers nothing until its index is built, tells its errors, and builds it again after one', {
  skip: !postgres && 'no PostgreSQL',
}, async (t) => {
  const { store, threads: thread, errors, head } = await threadsOnPostgres(t, 300);
  assert.equal(await thread.closeMatches('birth', QUERIES[0], OPTIONS), undefined, 'nothing before the index is built');
  await thread.reached(await head());
  assert.deepEqual(thread.state, { built: true, position: await head() });
  const before = await thread.closeMatches('birth', QUERIES[0], OPTIONS);
  assert.equal(before?.matches[0]?.id, 2001);

  // The feed locked: the thread's next read of it (woken by a notification) outlasts its statement
  // timeout, and its index is built again once the lock is gone.
  await store.driver.transaction(async (tx) => {
    await tx.query('LOCK TABLE feed_event IN ACCESS EXCLUSIVE MODE');
    await store.driver.query('SELECT pg_notify($1, $2)', [FEED_CHANNEL, '']);
    for (let waited = 0; !errors.length && waited < 10_000; waited += 50) await delay(50);
  });
  assert.ok(errors.length > 0, 'the failed read told');
  await store.upsert('birth', [birth(2008, 'Bill', 'Smyth', '2010-03-04')]);
  await thread.reached(await head());
  assert.ok(
    errors.every((message) => !/smyth|smith|bill/i.test(message)),
    `no names in its errors: ${errors}`,
  );
  const after = await thread.closeMatches('birth', QUERIES[0], OPTIONS);
  assert.deepEqual(after?.matches.map((match) => match.id).sort(), [2001, 2008]);
});

test(
  'memory: the thread fed the records finds the close ' + 'matches found on the event loop, each write seen at once',
  async (t) => {
    const store = await emptyStore(t, 'memory', undefined, 'service');
    const thread = await answersAsTheEventLoop(store);
    // Written, then asked at once: the thread has the write before the question.
    const georgina = birth(2007, 'Georgina', 'Marsden', '2010-03-14');
    await store.writer.write(
      'birth',
      (async function* () {
        yield [{ id: georgina.id, json: JSON.stringify(georgina.data), keys: georgina.keys }];
      })(),
    );
    const ids = (await thread.closeMatches('birth', QUERIES[2], OPTIONS))!.matches.map((match) => match.id);
    assert.ok(ids.includes(2007), `the write seen: ${ids}`);
    assert.deepEqual(
      await thread.closeMatches('birth', QUERIES[2], OPTIONS),
      await closeMatches(store, 'birth', QUERIES[2], OPTIONS),
    );
    assert.deepEqual(
      await store.closeMatches!('birth', QUERIES[0], OPTIONS),
      await closeMatches(store, 'birth', QUERIES[0], OPTIONS),
    );
  },
);

test(
  'memory: a thread started when asked stays unstarted until its first close match, then answers as the ' +
    'event loop',
  async (t) => {
    const { reader, writer, searchKeys } = createMemoryRecords(builtInTypes);
    await writer.write(
      'birth',
      (async function* () {
        yield BIRTHS.map((record) => ({ id: record.id, json: JSON.stringify(record.data), keys: record.keys }));
      })(),
    );
    const errors: string[] = [];
    const eager = startSuggestionThreads(['birth'], { fed: searchKeys }, (error) => errors.push(error.message));
    const asked = startSuggestionThreads(['birth'], { fed: searchKeys }, (error) => errors.push(error.message), {
      whenAsked: true,
    });
    t.after(() => Promise.all([eager.stop(), asked.stop()]));
    await eager.reached(0);
    assert.equal(eager.begun, true);
    assert.equal(asked.begun, false, 'not started before it was asked');
    assert.equal(asked.state.built, false);
    // The first question starts it; until it is built, the caller finds close matches on the event loop.
    assert.equal(await asked.closeMatches('birth', QUERIES[0], OPTIONS), undefined);
    assert.equal(asked.begun, true);
    await asked.reached(0);
    assert.deepEqual(
      await asked.closeMatches('birth', QUERIES[0], OPTIONS),
      await closeMatches(reader, 'birth', QUERIES[0], OPTIONS),
    );
    assert.deepEqual(errors, []);
  },
);

test('postgres: several threads answer as one, and a position is reached when every thread has reached it', {
  skip: !postgres && 'no PostgreSQL',
}, async (t) => {
  const { store, threads, errors, applicationName, head } = await threadsOnPostgres(t, 5000, { threads: 3 });
  await threads.reached(await head());
  assert.deepEqual(threads.state, { built: true, position: await head() });
  // Each thread follows the feed on a listening connection of its own, held while it follows.
  const [{ connections }] = await store.driver.query<{ connections: number }>(
    'SELECT count(*)::int AS connections FROM pg_stat_activity WHERE application_name = $1',
    [applicationName],
  );
  assert.ok(connections >= 3, `a connection a thread at least: ${connections}`);
  // Asked at once, the questions spread over the threads; every answer is the event loop's.
  const asked = QUERIES.flatMap((q) => [q, q, q]);
  const answers = await Promise.all(asked.map((q) => threads.closeMatches('birth', q, OPTIONS)));
  for (const [i, q] of asked.entries())
    assert.deepEqual(answers[i], await closeMatches(store, 'birth', q, OPTIONS), `${q.surname} ${q.forenames}`);

  // A write, then its position reached: whichever thread answers has it.
  await store.upsert('birth', [birth(2008, 'Bill', 'Smyth', '2010-03-04')]);
  await threads.reached(await head());
  for (let i = 0; i < 6; i++) {
    const ids = (await threads.closeMatches('birth', QUERIES[0], OPTIONS))?.matches.map((match) => match.id);
    assert.ok(ids?.includes(2008), `asked ${i + 1}: the write seen: ${ids}`);
  }
  assert.deepEqual(errors, []);
});
