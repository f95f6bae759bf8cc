import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NameTally } from '../../src/store/name-tally.ts';

const key = (surname: string, forenames: string, date = '2001-02-03') => ({ date, surname, forenames });

test('a record counts once for each distinct surname and first forename of its keys', () => {
  const tally = new NameTally();
  // One registration found three ways: two dates, and a second surname on one of them.
  tally.count([key('smith', 'mary ann'), key('smith', 'mary', '2001-03-02'), key('jones', 'mary ann')], 1);
  tally.count([key('smith', 'john')], 1);
  assert.deepEqual(Object.fromEntries(tally.surnames), { smith: 2, jones: 1 });
  assert.deepEqual(Object.fromEntries(tally.forenames), { mary: 1, john: 1 });
});

test('keys without forenames count their surname only', () => {
  const tally = new NameTally();
  tally.count([key('smith', '')], 1);
  assert.deepEqual(Object.fromEntries(tally.surnames), { smith: 1 });
  assert.equal(tally.forenames.size, 0);
});

test('a record counted out takes its names back, and a name counted to 0 is not held', () => {
  const tally = new NameTally();
  const keys = [key('smith', 'mary ann')];
  tally.count(keys, 1);
  tally.count([key('smith', 'john')], 1);
  tally.count(keys, -1);
  assert.deepEqual(Object.fromEntries(tally.surnames), { smith: 1 });
  assert.deepEqual(Object.fromEntries(tally.forenames), { john: 1 });
  tally.clear();
  assert.equal(tally.surnames.size + tally.forenames.size, 0);
});
