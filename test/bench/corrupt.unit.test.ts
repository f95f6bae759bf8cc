/**
 * The close-match evaluation's corruptions make what they are named for: scored against the
 * registration they came from, each detail they change matches as that kind (src/match), and a
 * seed gives the same corruptions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PAIRS, SINGLE } from '../../bench/lib/corrupt.ts';
import { Random } from '../../src/generate/random.ts';
import { scoreKey } from '../../src/match/score.ts';
import { normaliseName } from '../../src/records/normalise.ts';

const key = (d: { surname: string; forenames: string; date: string }) => ({
  surname: normaliseName(d.surname),
  forenames: normaliseName(d.forenames),
  date: d.date,
});

const REGISTERED = [
  { surname: 'Ashby-Cartwright', forenames: 'William Henry', date: '2011-05-09' },
  { surname: 'Thompson', forenames: 'Margaret Ann', date: '1990-11-20' },
  { surname: 'Pemberton', forenames: 'Catherine', date: '2003-02-07' },
];

const EXPECTED: Record<string, (m: ReturnType<typeof scoreKey>['matched']) => boolean> = {
  none: (m) => m.surname === 'exact' && m.forenames === 'exact' && m.date === 'exact',
  nickname: (m) => m.forenames === 'nickname',
  'sound-alike': (m) => m.surname === 'sound-alike',
  'spelling-surname': (m) => m.surname === 'spelling' || m.surname === 'sound-alike',
  'spelling-forename': (m) => m.forenames === 'spelling' || m.forenames === 'sound-alike',
  'part-of-name': (m) => m.surname === 'part-of-name' || m.forenames === 'part-of-name',
  swapped: (m) => m.surname === 'swapped' && m.forenames === 'swapped',
  'day-month-swapped': (m) => m.date === 'day-month-swapped',
  'near-date': (m) => m.date === 'near-date',
  'digit-in-date': (m) => m.date === 'near-date' || m.date === 'year-digit',
};

test('each single corruption makes the kind of match it is named for', () => {
  for (const [name, corrupt] of Object.entries(SINGLE)) {
    const r = Random.fromString(`corrupt-test ${name}`);
    let made = 0;
    for (let round = 0; round < 20; round++) {
      for (const registered of REGISTERED) {
        const query = corrupt(registered, r);
        if (!query) continue;
        made++;
        const { matched } = scoreKey(key(query), key(registered));
        assert.ok(
          EXPECTED[name](matched),
          `${name}: ${JSON.stringify(query)} for ${JSON.stringify(registered)} matched ${JSON.stringify(matched)}`,
        );
      }
    }
    assert.ok(made > 0, `${name} made some`);
  }
});

test('pairs change two details; a seed gives the same corruptions', () => {
  const pair = PAIRS['nickname + near-date'];
  const once = pair(REGISTERED[0], Random.fromString('seed'));
  assert.deepEqual(once, pair(REGISTERED[0], Random.fromString('seed')));
  const { matched } = scoreKey(key(once!), key(REGISTERED[0]));
  assert.deepEqual([matched.forenames, matched.date], ['nickname', 'near-date']);
});
