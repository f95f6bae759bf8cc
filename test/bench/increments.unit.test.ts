import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INCREMENTS, incrementArgs, incrementFirstId } from '../../bench/lib/increments.ts';
import { iso } from '../../src/generate/days.ts';
import { datesOf } from '../../src/generate/records.ts';

const option = (args: readonly string[], name: string) => {
  const at = args.indexOf(name);
  return at < 0 ? undefined : args[at + 1];
};

test('increments: the two files of new births take ids of their own, above any register, one after the other', () => {
  for (const births of [1000, 100_000]) {
    const [latest, allYears] = INCREMENTS.map((name) =>
      Number(option(incrementArgs(name, births, 'scale'), '--first-id')),
    );
    assert.equal(latest, incrementFirstId('latest', births));
    assert.ok(latest > 100_000_000 * 1.5, 'above the ids of a register of a hundred million births');
    assert.equal(allYears, latest + births);
  }
});

test('increments: the latest births are the days taken to register them, births of all years any day', () => {
  const last = datesOf('birth').days[1];
  // 100,000 births at 1,650 a day take 61 days, and the law allows 42 days to register each.
  const latest = incrementArgs('latest', 100_000, 'scale');
  assert.equal(option(latest, '--from'), iso(last - 61 - 42));
  assert.equal(option(latest, '--seed'), 'scale-latest');
  assert.equal(option(latest, '--count'), '100000');
  const allYears = incrementArgs('allYears', 100_000, 'scale');
  assert.equal(option(allYears, '--from'), undefined);
  assert.equal(option(allYears, '--seed'), 'scale-allYears');
});
