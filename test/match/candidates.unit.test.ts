/**
 * Candidates packed as the stores answer them: each distinct string once, each key three numbers,
 * read back as they were written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyAt, packCandidates, unpackCandidates } from '../../src/match/candidates.ts';

const key = (date: string, surname: string, forenames: string) => ({ date, surname, forenames });

test('packed candidates name each string once and read back as written', () => {
  const records = [
    { id: 3, keys: [key('2010-03-14', 'marsden', 'george'), key('2010-03-14', 'marsden', 'george william')] },
    { id: 7, keys: [] },
    { id: 9, keys: [key('1990-11-20', 'thompson', 'margaret'), key('2010-03-14', 'thompson', '')] },
  ];
  const packed = packCandidates(records, true);
  assert.deepEqual(packed.ids, [3, 9], 'a record without keys is no candidate');
  assert.deepEqual([...packed.starts], [0, 2, 4]);
  assert.deepEqual(packed.strings, [
    '2010-03-14',
    'marsden',
    'george',
    'george william',
    '1990-11-20',
    'thompson',
    'margaret',
    '',
  ]);
  assert.equal(packed.keys[0], packed.keys[3], 'the same date is the same number');
  assert.deepEqual(keyAt(packed, 3), key('2010-03-14', 'thompson', ''));
  assert.deepEqual(unpackCandidates(packed), [records[0], records[2]]);
  assert.equal(packed.truncated, true);
  assert.deepEqual(unpackCandidates(packCandidates([])), []);
});
