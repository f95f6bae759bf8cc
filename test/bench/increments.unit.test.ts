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

test('increments: each round has files of its own, their ids after the round before, the first round as ever', () => {
  const births = 1000;
  const ids = [0, 1, 2].flatMap((round) =>
    INCREMENTS.map((name) => {
      const args = incrementArgs(name, births, 'scale', round);
      assert.equal(Number(option(args, '--first-id')), incrementFirstId(name, births, round));
      return { first: incrementFirstId(name, births, round), seed: option(args, '--seed') };
    }),
  );
  ids.forEach(({ first }, at) => assert.equal(first, ids[0].first + at * births, 'ranges one after the other'));
  assert.equal(new Set(ids.map(({ seed }) => seed)).size, ids.length, 'a seed a file');
  assert.deepEqual(incrementArgs('latest', births, 'scale', 0), incrementArgs('latest', births, 'scale'));
  assert.equal(option(incrementArgs('allYears', births, 'scale', 2), '--seed'), 'scale-allYears-2');
});
