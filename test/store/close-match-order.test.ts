/**
 * The order a close-match pass ranks its records in is stated twice, in TypeScript for the memory
 * store (suggestion-index.ts) and in SQL's row_number() for PostgreSQL (postgres-records.ts):
 * by the pass's keys a record shares, most first, then by how early the first of them comes, then
 * by id. Which records a capped pass takes follows from it, so the two stores must take the same:
 * here over 1,000 queries made from generated births, with caps small enough to bite. (It found
 * the memory index telling keys apart by their 30-bit slot alone: a record whose key shared a slot
 * with a query's was its candidate there, and not on PostgreSQL.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordType } from '../../src/load/conversion.ts';
import { generateRecords } from '../../src/generate/records.ts';
import { Random } from '../../src/generate/random.ts';
import { candidatePasses } from '../../src/match/keys.ts';
import type { SearchKey, StoredRecord } from '../../src/model/records.ts';
import { emptyStore, postgresAvailable } from '../helper.ts';
import { builtInType } from '../record-types.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';
const QUERIES = 1000;

test('the memory store and PostgreSQL take the same records for every pass of 1,000 close-match queries', {
  skip,
}, async (t) => {
  const births = recordType(builtInType('birth'));
  const stored = [...generateRecords('birth', { count: 4000, seed: 'close-match order' })].map((record) => {
    const result = births.toStored(record);
    if ('reason' in result) throw new Error(result.reason);
    return result;
  });
  const [memory, postgres] = [await emptyStore(t, 'memory'), await emptyStore(t, 'postgres')];
  for (const store of [memory, postgres]) await store.upsert('birth', stored);

  // A query mixes the names and dates of records chosen at random, a day or a letter sometimes out,
  // so that many records share some of its keys, and few all of them.
  const r = Random.fromString('close-match order queries');
  const keysOf = (record: StoredRecord) => record.keys as readonly SearchKey[];
  const pick = () => r.pick(keysOf(r.pick(stored)));
  const misspelt = (name: string) => (name.length > 3 && r.chance(0.3) ? name.slice(0, 2) + name.slice(3) : name);
  const dayOut = (date: string) =>
    r.chance(0.3) ? new Date(Date.parse(date) + 86_400_000 * r.int(-3, 3)).toISOString().slice(0, 10) : date;
  let truncated = 0;
  let compared = 0;
  for (let i = 0; i < QUERIES; i++) {
    const query: SearchKey = {
      surname: misspelt(pick().surname),
      forenames: pick().forenames,
      date: dayOut(pick().date),
    };
    const cap = r.int(1, 6);
    const passes = candidatePasses(query).map((pass) => ({ ...pass, limit: cap }));
    const [inMemory, inPostgres] = [
      await memory.suggestionCandidates('birth', passes),
      await postgres.suggestionCandidates('birth', passes),
    ];
    const what = `query ${i} (${query.surname} ${query.forenames} ${query.date}, cap ${cap})`;
    assert.deepEqual(inPostgres.ids, inMemory.ids, what);
    assert.equal(inPostgres.truncated, inMemory.truncated, what);
    if (inMemory.truncated) truncated++;
    compared += inMemory.ids.length;
  }
  // The caps bit often enough for the order within a pass to decide what was taken.
  assert.ok(truncated >= QUERIES / 10, `${truncated} of ${QUERIES} queries had a pass capped`);
  assert.ok(compared >= QUERIES, `${compared} candidates compared`);
});
