/**
 * The close-match keys' layout (src/match/keys.ts): a key's date part leads, so that the keys of
 * registrations of neighbouring days lie together in PostgreSQL's index of them, and a record is
 * found by the keys a query of its own details asks for.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dayNumber } from '../../src/match/dates.ts';
import { candidatePasses, datePartOfKey, hashOfKey, suggestionKeyValues } from '../../src/match/keys.ts';

const key = (surname: string, forenames: string, date: string) => ({ surname, forenames, date });
const NAMES = [
  ['smith', 'william'],
  ['jones', 'mary ann'],
  ['fairfax lowe', 'catherine'],
  ['oconnor', 'siobhan'],
  ['patel', 'arjun'],
];

test('every key is a whole number below 2^53, its hash of 31 bits with the highest set', () => {
  for (const [surname, forenames] of NAMES)
    for (const date of ['0001-01-01', '1837-07-01', '2026-11-29', '9999-12-31'])
      for (const value of suggestionKeyValues([key(surname, forenames, date)])) {
        assert.ok(Number.isSafeInteger(value) && value > 0, `${value} for ${date}`);
        assert.ok(hashOfKey(value) >= 2 ** 30 && hashOfKey(value) < 2 ** 31, `hash of ${value}`);
      }
});

test("a key's date part is its pass's part of the date, and leads it: later days' keys sort after", () => {
  const day = '2026-11-23';
  const parts = new Set<number>();
  for (const [surname, forenames] of NAMES)
    for (const value of suggestionKeyValues([key(surname, forenames, day)])) parts.add(datePartOfKey(value));
  // The day's number, the month (year * 12 + month - 1), and the decade.
  assert.deepEqual(
    [...parts].sort((a, b) => a - b),
    [202, 2026 * 12 + 10, dayNumber(day)],
  );
  // Any key of a later day sorts after every key of an earlier one with the same pass's date part.
  const week = ['2026-11-23', '2026-11-24', '2026-11-25'];
  const dayKeys = week.map((date) =>
    NAMES.flatMap(([surname, forenames]) => suggestionKeyValues([key(surname, forenames, date)])).filter(
      (value) => datePartOfKey(value) > 2026 * 12 + 10,
    ),
  );
  assert.ok(Math.max(...dayKeys[0]) < Math.min(...dayKeys[1]) && Math.max(...dayKeys[1]) < Math.min(...dayKeys[2]));
});

test("a query of a record's own details asks for every key the record has", () => {
  for (const [surname, forenames] of NAMES) {
    const details = key(surname, forenames, '1990-11-20');
    const asked = new Set(candidatePasses(details).flatMap((pass) => pass.keys));
    for (const value of suggestionKeyValues([details])) assert.ok(asked.has(value), `${surname} ${value}`);
  }
});

test('the names pass finds a record of any decade of the register, the decades nearest the date asked first', () => {
  const names = (date: string) => candidatePasses(key('smith', 'william', date)).find((p) => p.name === 'names')!;
  const asked = names('1987-05-12').keys.map(datePartOfKey);
  // Its own decade, then those a digit of its year out falls in (1977, 1997, ...), then outward.
  assert.equal(asked[0], 198);
  const decades = [...new Set(asked)];
  assert.deepEqual(decades.slice(0, 3), [198, 197, 199]);
  assert.ok(decades.indexOf(195) < decades.indexOf(185), 'the 1950s before the 1850s');
  // A record of the same names whatever its date, from the register's first year to this one.
  for (const date of ['1837-07-01', '1911-02-03', '1987-05-12', `${new Date().getUTCFullYear()}-01-01`]) {
    const recordKeys = suggestionKeyValues([key('smith', 'william', date)]);
    assert.ok(
      recordKeys.some((value) => names('1987-05-12').keys.includes(value)),
      `a record of ${date} shares a names key`,
    );
  }
});
