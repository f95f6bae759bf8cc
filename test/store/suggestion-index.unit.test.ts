/**
 * The close-match index held in memory (the memory store's, and PostgreSQL's thread's) against the
 * rule it keeps (RecordReader.suggestionCandidates), and the register's counts it keeps, worked out
 * here the plain way from every record's keys: after records are added (in id order, and not),
 * written again with other keys and removed, so that postings are unlinked and reused, the slot
 * table rehashed and the key columns compacted. Added in id order, the index orders and ties its
 * answers by position; out of it, by id: both are checked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Random } from '../../src/generate/random.ts';
import { candidatePasses, suggestionKeyValues } from '../../src/match/keys.ts';
import { createSuggestionIndex } from '../../src/store/suggestion-index.ts';
import { unpackCandidates } from '../../src/match/candidates.ts';
import type { SearchKey } from '../../src/model/records.ts';
import type { KeyPass } from '../../src/model/store.ts';

const SURNAMES = ['smith', 'smyth', 'jones', 'johns', 'brown', 'braun', 'ollerenshaw', 'fairfax lowe', 'lowe'];
const FORENAMES = ['william', 'bill', 'william henry', 'margaret', 'peggy', 'catherine', 'kathryn', ''];

function randomKey(r: Random): SearchKey {
  const date = `20${r.int(10, 12)}-0${r.int(1, 3)}-${r.int(10, 14)}`;
  return { surname: r.pick(SURNAMES), forenames: r.pick(FORENAMES), date };
}
const randomKeys = (r: Random) => Array.from({ length: r.int(1, 2) }, () => randomKey(r));

/** The rule, read off every record: each pass's records by keys shared, then how early, then id, up to its limit. */
function expected(
  records: Map<number, readonly SearchKey[]>,
  holders: Map<number, readonly number[]>,
  passes: readonly KeyPass[],
) {
  const chosen = new Set<number>();
  let truncated = false;
  for (const pass of passes) {
    const keys = [...new Set(pass.keys.map(Number))];
    const byId = new Map<number, { id: number; shared: number; first: number }>();
    keys.forEach((key, i) => {
      for (const id of holders.get(key) ?? []) {
        const held = byId.get(id);
        if (held) held.shared++;
        else byId.set(id, { id, shared: 1, first: i });
      }
    });
    const ranked = [...byId.values()].sort((a, b) => b.shared - a.shared || a.first - b.first || a.id - b.id);
    for (const { id } of ranked.slice(0, pass.limit)) chosen.add(id);
    truncated ||= ranked.length > pass.limit;
  }
  const ids = [...chosen].sort((a, b) => a - b);
  return { ids, keys: ids.map((id) => records.get(id)), truncated };
}

/** Which records hold each key, from every record's keys. */
function holdersOf(records: Map<number, readonly SearchKey[]>) {
  const holders = new Map<number, number[]>();
  for (const [id, keys] of records) {
    for (const key of new Set(suggestionKeyValues(keys))) {
      const ids = holders.get(key);
      if (ids) ids.push(id);
      else holders.set(key, [id]);
    }
  }
  return holders;
}

/**
 * An index and the records it should hold: `put` adds a record with random keys to both, `check`
 * checks the index's answers and counts against the rule, for 40 random queries.
 */
function fixture(seed: string) {
  const r = Random.fromString(seed);
  const index = createSuggestionIndex();
  const records = new Map<number, readonly SearchKey[]>();
  const put = (id: number) => {
    const keys = randomKeys(r);
    index.add(id, keys);
    records.set(id, keys);
  };
  const check = (when: string) => {
    const holders = holdersOf(records);
    for (let q = 0; q < 40; q++) {
      const passes = candidatePasses(randomKey(r)).map((pass) => ({ ...pass, limit: r.pick([3, 20, 500]) }));
      const found = index.candidates(passes);
      const want = expected(records, holders, passes);
      assert.deepEqual(found.ids, want.ids, when);
      assert.deepEqual(
        unpackCandidates(found).map((record) => record.keys),
        want.keys,
        when,
      );
      assert.equal(found.truncated, want.truncated, when);
    }
    // The register's counts: each record's distinct surnames and first forenames, once a record.
    for (const surname of SURNAMES) {
      const forename = r.pick(FORENAMES.filter(Boolean)).split(' ')[0];
      const holding = (name: (key: SearchKey) => string, value: string) =>
        [...records.values()].filter((keys) => keys.some((key) => name(key) === value)).length;
      const want = {
        surname: holding((key) => key.surname, surname),
        forename: holding((key) => key.forenames.split(' ')[0], forename),
      };
      assert.deepEqual(index.nameCounts(surname, forename), want, `${when}: ${surname}, ${forename}`);
    }
  };
  return { r, index, records, put, check };
}

test('the index answers as the rule reads off every record, through additions, rewrites and removals', () => {
  const { r, index, records, put, check } = fixture('memory-suggestion-index');

  for (let id = 1; id <= 3000; id++) put(id);
  check('added');
  // Written again: old keys left behind, then compacted away once they are half the columns.
  for (let n = 0; n < 4000; n++) put(r.int(1, 3000));
  check('written again');
  for (let id = 1; id <= 3000; id += 2) {
    index.remove(id);
    records.delete(id);
  }
  index.remove(99_999);
  check('removed');
  // Postings freed by the removals are used again; ids above the greatest take new positions.
  for (let id = 1_000_000_000_001; id <= 1_000_000_001_500; id++) put(id);
  check('added again, with ids past 2^32');
  // Ids below the greatest, added anew, take positions out of id order: answers are ordered by id.
  for (let id = 1; id <= 1500; id += 2) put(id);
  check('added out of id order');
  for (let id = 1_000_000_001_501; id <= 1_000_000_002_000; id++) put(id);
  check('added in id order again, after some out of it');
});

test('the index answers by id when records come out of id order from the start', () => {
  const { put, check } = fixture('memory-suggestion-index-out-of-order');
  for (let id = 3000; id >= 1; id--) put(id);
  check('added in descending id order');
});
