import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { compareDate } from '../../src/match/dates.ts';
import { queryKeys, suggestionKeys } from '../../src/match/keys.ts';
import { jaroWinkler } from '@skyra/jaro-winkler';
import {
  commonLetters,
  compareForenames,
  compareSurname,
  editDistance,
  similarity,
  soundAlike,
} from '../../src/match/names.ts';
import { areNicknames, nicknamesOf } from '../../src/match/nicknames.ts';
import { estimateM } from '../../src/match/estimate.ts';
import { probabilityOf, scoreKey, scoreRecord } from '../../src/match/score.ts';
import { LEVELS, MATCH_KINDS, levelOf, levelWeight } from '../../src/match/vocabulary.ts';
import { Random } from '../../src/generate/random.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import type { SearchKey } from '../../src/model/records.ts';

const n = normaliseName;
const key = (surname: string, forenames: string, date: string): SearchKey => ({
  surname: n(surname),
  forenames: n(forenames),
  date,
});

describe('names', () => {
  test('nicknames work both ways, and only within a group', () => {
    for (const [a, b] of [
      ['william', 'bill'],
      ['william', 'liam'],
      ['margaret', 'peggy'],
      ['catherine', 'kate'],
      ['john', 'jack'],
      ['robert', 'bert'],
      ['albert', 'bert'],
    ]) {
      assert.ok(areNicknames(a, b), `${a} ${b}`);
      assert.ok(areNicknames(b, a), `${b} ${a}`);
      assert.ok(nicknamesOf(a).includes(b));
    }
    assert.ok(!areNicknames('robert', 'albert'), 'sharing a pet form does not make two names one');
    assert.ok(!areNicknames('william', 'william'));
    assert.ok(!areNicknames('george', 'william'));
    assert.deepEqual(nicknamesOf('zebedee'), []);
  });

  test('edits are counted with neighbouring letters exchanged as one, and capped', () => {
    assert.equal(editDistance('smith', 'smith', 2), 0);
    assert.equal(editDistance('smith', 'smiht', 2), 1);
    assert.equal(editDistance('thomson', 'thompson', 2), 1);
    assert.equal(editDistance('abc', 'xyz', 1), 2);
    assert.equal(editDistance('ab', 'abcdef', 2), 3);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }),
        fc.string({ maxLength: 8 }),
        (a, b) => editDistance(a, b, 20) === editDistance(b, a, 20),
      ),
      { numRuns: 500 },
    );
  });

  test('spelling: one edit from 4 letters, two from 5, then by Jaro-Winkler similarity', () => {
    assert.equal(compareSurname('cox', 'cix').kind, 'different');
    assert.equal(compareSurname('marsden', 'marsdeb').kind, 'spelling');
    assert.equal(compareSurname('marsden', 'markdeb').kind, 'two-edits');
    assert.equal(compareSurname('pike', 'pyle').kind, 'different', 'two edits only from 5 letters');
    assert.equal(compareSurname('pikes', 'pyles').kind, 'two-edits');
    assert.equal(compareSurname('ollerenshaw', 'ollrenhsaww').kind, 'similar');
    assert.equal(compareSurname('ashworth', 'ashwell').kind, 'loosely-similar');
    assert.equal(compareSurname('ashworth', 'merridew').kind, 'different');
  });

  test('similarity is the Jaro-Winkler of @skyra/jaro-winkler, to the last bit', () => {
    const words = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'abcde',
      'martha',
      'marhta',
      'dixon',
      'dicksonx',
      'jones',
      'johnson',
      'mary ann',
      'maryann',
      'zoë',
      '𝒜lice',
      'alice',
      'ψυχή',
    ];
    for (const a of words) for (const b of words) assert.equal(similarity(a, b), jaroWinkler(a, b), `${a} ${b}`);
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-f ]{0,12}$/),
        fc.stringMatching(/^[a-f ]{0,12}$/),
        (a, b) => similarity(a, b) === jaroWinkler(a, b),
      ),
      { numRuns: 5000 },
    );
  });

  test('the letters in common decide a spelling only where edits and similarity would decide it alike', () => {
    assert.equal(commonLetters('anna', 'nana'), 4);
    assert.equal(commonLetters('aab', 'abb'), 2);
    assert.equal(commonLetters('smith', 'dawe'), 0);
    assert.equal(commonLetters('zoë', 'zoe'), -1, 'not counted beyond ASCII');
    // The rule as written, every measure taken: one edit from 4 letters, two from 5, then similarity.
    const plain = (a: string, b: string) => {
      const longer = Math.max(a.length, b.length);
      const most = longer >= 5 ? 2 : 1;
      const edits = longer >= 4 ? editDistance(a, b, most) : Infinity;
      if (edits <= 1) return 'spelling';
      if (edits <= most) return 'two-edits';
      const alike = similarity(a, b);
      return alike >= 0.9 ? 'similar' : alike >= 0.8 ? 'loosely-similar' : 'different';
    };
    const spelt = (a: string, b: string) => a === b || soundAlike(a, b) || compareSurname(a, b).kind === plain(a, b);
    const names = [
      'smith',
      'smyth',
      'ashworth',
      'ashwell',
      'merridew',
      'marsden',
      'markdeb',
      'ollerenshaw',
      'ollrenhsaww',
      'pikes',
      'pyles',
      'zoë',
      'zoe',
      'martha',
      'marhta',
    ];
    for (const a of names) for (const b of names) assert.ok(spelt(a, b), `${a} ${b}`);
    fc.assert(fc.property(fc.stringMatching(/^[a-g]{1,10}$/), fc.stringMatching(/^[a-g]{1,10}$/), spelt), {
      numRuns: 20000,
    });
  });

  test('sound-alike needs a code of two sounds or the same first letter', () => {
    assert.ok(soundAlike('smith', 'smyth'));
    assert.ok(soundAlike('catherine', 'kathryn'));
    assert.ok(!soundAlike('zoe', 'sue'));
  });

  test('each kind of name match', () => {
    const cases: [string, string, string, string][] = [
      ['forenames', 'Eleanor', 'Eleanor', 'exact'],
      ['forenames', 'Eleanor', 'Eleanor Rose', 'word-prefix'],
      ['forenames', 'Bill', 'William', 'nickname'],
      ['forenames', 'William', 'Bill', 'nickname'],
      ['forenames', 'Peggy Ann', 'Margaret Ann', 'nickname'],
      ['forenames', 'Kathryn', 'Catherine', 'sound-alike'],
      ['surname', 'Smyth', 'Smith', 'sound-alike'],
      ['surname', 'Thomson', 'Thompson', 'spelling'],
      ['surname', 'Lowe', 'Fairfax-Lowe', 'part-of-name'],
      ['surname', 'Fairfax Lowe', 'Lowe', 'part-of-name'],
      ['forenames', 'Rose', 'Eleanor Rose', 'part-of-name'],
      ['forenames', 'Poppy', '', 'missing'],
      ['forenames', 'Eleanor', 'Margaret', 'different'],
      ['surname', 'Ashworth', 'Merridew', 'different'],
    ];
    for (const [part, query, stored, kind] of cases) {
      const match = part === 'surname' ? compareSurname(n(query), n(stored)) : compareForenames(n(query), n(stored));
      assert.equal(match.kind, kind, `${part} ${query} against ${stored}`);
    }
  });
});

describe('dates', () => {
  test('each kind of date match', () => {
    assert.equal(compareDate('2008-08-08', '2008-08-08'), 'exact');
    assert.equal(compareDate('2010-04-03', '2010-03-04'), 'day-month-swapped');
    assert.equal(compareDate('2010-03-12', '2010-03-14'), 'near-date');
    assert.equal(compareDate('2009-12-30', '2010-01-02'), 'near-date', 'across a year');
    assert.equal(compareDate('2010-03-24', '2010-03-14'), 'near-date', 'one digit');
    assert.equal(
      compareDate('2001-03-14', '2010-03-14'),
      'year-digit',
      'two neighbouring digits of the year exchanged',
    );
    assert.equal(compareDate('2011-03-14', '2010-03-14'), 'year-digit');
    assert.equal(compareDate('2010-09-24', '2010-03-14'), 'two-digits');
    assert.equal(compareDate('2013-03-18', '2010-03-14'), 'two-digits', 'two digits apart, not neighbours');
    assert.equal(compareDate('2010-04-08', '2010-03-14'), 'within-month');
    assert.equal(compareDate('2010-07-30', '2010-03-14'), 'different');
  });
});

describe('scores', () => {
  test('the vocabulary is fixed; every level of every detail is a word of it, with m and u probabilities', () => {
    for (const levels of Object.values(LEVELS)) {
      for (const level of levels) {
        assert.ok(MATCH_KINDS.includes(level.kind), level.kind);
        assert.ok(level.m > 0 && level.m <= 1 && level.u > 0 && level.u <= 1, level.kind);
      }
      const m = levels
        .filter((level) => level.kind !== 'swapped' || level.m < 1)
        .reduce((sum, level) => sum + level.m, 0);
      assert.ok(Math.abs(m - 1) < 0.01, `m sums to ${m}`);
    }
    assert.equal(levelOf('date', 'nickname'), undefined);
  });

  test('an exact match is the likeliest; errors weigh less, a rare name more than a common one', () => {
    const stored = key('Ashworth', 'Eleanor Rose', '2008-08-08');
    const exact = scoreKey(key('Ashworth', 'Eleanor Rose', '2008-08-08'), stored, {
      records: 100_000,
      surname: 30,
      forename: 400,
    });
    assert.deepEqual(exact.matched, { surname: 'exact', forenames: 'exact', date: 'exact' });
    assert.equal(exact.score, 1);
    const nickname = scoreKey(key('Ashworth', 'Ellie', '2008-08-08'), stored);
    assert.deepEqual(nickname.matched, { surname: 'exact', forenames: 'nickname', date: 'exact' });
    const swappedNames = scoreKey(key('Eleanor', 'Ashworth', '2008-08-08'), stored);
    assert.deepEqual(swappedNames.matched, { surname: 'swapped', forenames: 'swapped', date: 'exact' });
    const swappedFields = scoreKey(key('Eleanor Rose', 'Ashworth', '2008-08-08'), stored);
    assert.deepEqual(
      swappedFields.matched,
      { surname: 'swapped', forenames: 'swapped', date: 'exact' },
      'the whole forenames in the place of the surname',
    );
    const swappedSlip = scoreKey(key('Eleanor Rose', 'Ashwoth', '2008-08-08'), stored);
    assert.deepEqual(
      swappedSlip.matched,
      { surname: 'swapped', forenames: 'swapped', date: 'exact' },
      'exchanged, the surname with a slip',
    );
    const swappedOtherSlip = scoreKey(key('Elanor', 'Ashworth', '2008-08-08'), stored);
    assert.deepEqual(
      swappedOtherSlip.matched,
      { surname: 'swapped', forenames: 'swapped', date: 'exact' },
      'exchanged, the forename with a slip',
    );
    assert.notEqual(
      scoreKey(key('Eleanor', 'Ashford', '2008-08-08'), stored).matched.surname,
      'swapped',
      'exchanged with another name is not',
    );
    assert.notEqual(
      scoreKey(key('Elanor', 'Ashwoth', '2008-08-08'), stored).matched.surname,
      'swapped',
      'both misspelt is not',
    );
    const far = scoreKey(key('Ashworth', 'Eleanor', '1990-01-01'), stored, {
      records: 100_000,
      surname: 30,
      forenames: 400,
    } as never);
    assert.equal(far.matched.date, 'different');
    assert.ok(far.weights.date < 0, 'a different date is evidence against');
    const common = levelWeight('surname', 'exact', 2000 / 100_000);
    const rare = levelWeight('surname', 'exact', 3 / 100_000);
    assert.ok(rare > common + 8, `${rare} against ${common}`);
    assert.ok(
      probabilityOf(20, 100_000) > 0.9 && probabilityOf(5, 100_000) < 0.01,
      'the prior is one registration of the register',
    );
  });

  test('a re-estimate of m by expectation-maximisation on generated pairs lands near the truth', () => {
    // Pairs drawn from known m and u (every level of the three details), a tenth of them matches.
    const u = [LEVELS.surname, LEVELS.forenames, LEVELS.date].map((levels) =>
      levels.map((level) => level.u / levels.reduce((s, l) => s + l.u, 0)),
    );
    const truth = [LEVELS.surname, LEVELS.forenames, LEVELS.date].map((levels) =>
      levels.map((level) => (level.kind === 'swapped' && level.m === 1 ? 0.001 : level.m)),
    );
    const normalised = truth.map((levels) => levels.map((value) => value / levels.reduce((a, b) => a + b, 0)));
    const r = Random.fromString('em-test');
    const draw = (p: readonly number[]) => {
      let x = r.float();
      for (let i = 0; i < p.length; i++) if ((x -= p[i]) < 0) return i;
      return p.length - 1;
    };
    const pairs = Array.from({ length: 50_000 }, () => {
      const from = r.chance(0.1) ? normalised : u;
      return from.map((levels) => draw(levels));
    });
    const start = normalised.map((levels) => levels.map(() => 1 / levels.length));
    const { m, matchShare } = estimateM(pairs, u, start);
    assert.ok(Math.abs(matchShare - 0.1) < 0.01, `share ${matchShare}`);
    m.forEach((levels, d) =>
      levels.forEach((value, l) =>
        assert.ok(
          Math.abs(value - normalised[d][l]) < 0.02,
          `detail ${d} level ${l}: ${value} against ${normalised[d][l]}`,
        ),
      ),
    );
  });

  test('a record is scored by its best key; the same input always gives the same score', () => {
    const keys = [key('Priddy', 'Walter', '1930-06-14'), key('Priddy', 'Walter', '2011-03-02')];
    const scored = scoreRecord(key('Priddy', 'Walt', '2011-03-02'), keys);
    assert.deepEqual(scored, scoreRecord(key('Priddy', 'Walt', '2011-03-02'), keys));
    assert.deepEqual(scored?.matched, { surname: 'exact', forenames: 'nickname', date: 'exact' });
    assert.equal(scoreRecord(key('Priddy', 'Walt', '2011-03-02'), []), undefined);
  });

  test('given a floor, a record scores as without one, or not at all when under the floor', () => {
    const names = [
      'Smith',
      'Smyth',
      'Smithe',
      'Smith-Jones',
      'Jones',
      'Thompson',
      'Thomson',
      'William',
      'Bill',
      'Walter',
      'Walt',
      'Eleanor Rose',
      'Rose',
      'Catherine',
      'Kathryn',
      '',
    ];
    const dates = ['2011-03-02', '2011-02-03', '2011-03-05', '2011-03-12', '2012-03-02', '1990-07-30'];
    const pick = <T>(list: readonly T[]) => fc.constantFrom(...list);
    const aKey = fc
      .tuple(pick(names.filter(Boolean)), pick(names), pick(dates))
      .map(([surname, forenames, date]) => key(surname, forenames, date));
    fc.assert(
      fc.property(
        aKey,
        fc.array(aKey, { maxLength: 3 }),
        fc.constantFrom(0, 0.001, 0.01, 0.5, 0.9, 0.97, 1),
        (query, keys, floor) => {
          const whole = scoreRecord(query, keys);
          assert.deepEqual(scoreRecord(query, keys, floor), whole && whole.score >= floor ? whole : undefined);
          assert.deepEqual(
            scoreRecord(query, [...keys].reverse(), floor),
            scoreRecord(query, keys, floor),
            'the keys in any order',
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('candidate keys', () => {
  const stored = key('Fairfax-Lowe', 'Lily Rose', '2009-06-30');
  const shares = (query: SearchKey) => {
    const mine = new Set(suggestionKeys([stored]));
    return queryKeys(query).some((k) => mine.has(k));
  };
  test('a query with any two details right, or alike, shares a key with the record', () => {
    const queries: [string, SearchKey][] = [
      ['exact', key('Fairfax-Lowe', 'Lily Rose', '2009-06-30')],
      ['surname misspelt', key('Fairfacks-Lowe', 'Lily', '2009-06-30')],
      ['part of the surname', key('Lowe', 'Lily', '2009-06-30')],
      ['nickname', key('Fairfax-Lowe', 'Lil', '2009-06-30')],
      ['forename misspelt', key('Fairfax-Lowe', 'Lilly', '2009-06-30')],
      ['middle name as the first', key('Fairfax-Lowe', 'Rose', '2009-06-30')],
      ['names swapped', key('Lily', 'Fairfax', '2009-06-30')],
      ['day and month swapped', key('Fairfax-Lowe', 'Lily', '2009-06-30')],
      ['near date across a year', key('Fairfax-Lowe', 'Lily', '2010-01-01')],
      ['year mistyped', key('Fairfax-Lowe', 'Lily', '2019-06-30')],
      ['both names wrong, the date right', key('Merridew', 'Daniel', '2009-06-30')],
      ['the names right, the date far out', key('Fairfax-Lowe', 'Lily', '1996-03-12')],
      ['a married surname, the date a few days out', key('Pemberton', 'Lily', '2009-06-27')],
      ['the forenames wrong, the month wrong', key('Fairfax-Lowe', 'Daisy', '2009-09-30')],
      [
        'the forename mistyped out of its sound, the date elsewhere in the decade',
        key('Fairfax-Lowe', 'Lkly', '2003-11-02'),
      ],
      [
        'the surname mistyped out of its sound, the date elsewhere in the decade',
        key('Gairfax-Lowe', 'Lily', '2001-02-17'),
      ],
    ];
    for (const [what, query] of queries) assert.ok(shares(query), what);
    assert.ok(!shares(key('Merridew', 'Daniel', '2009-06-29')), 'only one detail right, or none');
    assert.ok(!shares(key('Merridew', 'Lily', '2011-06-30')), 'the forename alone right');
    assert.ok(
      !shares(key('Fairfax-Lowe', 'Daisy', '2003-11-02')),
      'the surname alone right, the date elsewhere in the decade',
    );
  });

  test('the day and month exchanged share a key', () => {
    const mine = new Set(suggestionKeys([key('Marsden', 'George', '2010-03-04')]));
    assert.ok(queryKeys(key('Marsden', 'George', '2010-04-03')).some((k) => mine.has(k)));
  });
});
