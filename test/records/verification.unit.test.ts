/**
 * Verification declarations are checked when compiled, and the forenames rule
 * the matcher applies to a record already found is the store's key range.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { birth } from '../../src/records/types/birth.ts';
import { death } from '../../src/records/types/death.ts';
import { marriage } from '../../src/records/types/marriage.ts';
import type { RecordDescription } from '../../src/records/define.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { forenamesMatch } from '../../src/records/search-keys.ts';
import { compileVerification } from '../../src/records/verification.ts';

const withVerification = (
  record: RecordDescription,
  change: Partial<RecordDescription['verification']>,
): RecordDescription => ({
  ...record,
  verification: { ...record.verification, ...change },
});

describe('compileVerification', () => {
  test('a path that names no field, or a field of the wrong kind, fails at compile time, naming it', () => {
    const details = (detail: object) => ({ details: { ...birth.verification.details, placeOfBirth: detail } }) as never;
    assert.throws(
      () =>
        compileVerification(
          withVerification(birth, details({ compare: 'place', paths: ['child.birthplac'], description: '' })),
        ),
      /placeOfBirth: 'child.birthplac' is not a field/,
    );
    assert.throws(
      () =>
        compileVerification(
          withVerification(birth, details({ compare: 'date', paths: ['child.birthplace'], description: '' })),
        ),
      /cannot be compared as date/,
    );
    assert.throws(
      () =>
        compileVerification(
          withVerification(birth, details({ compare: 'name', paths: ['mother.aliases.surname'], description: '' })),
        ),
      /not a field/,
    );
    assert.throws(() => compileVerification(withVerification(birth, { replacedBy: 'status.blocked' })), /replacedBy/);
    assert.throws(
      () => compileVerification(withVerification(birth, { cancelledFlag: 'status.marginalNote' })),
      /cancelled flag/,
    );
  });

  test('the date must be one the search finds the parties by; every party is named; no parameter twice', () => {
    assert.throws(
      () =>
        compileVerification(
          withVerification(death, { date: { param: 'dateOfDeath', path: 'inquestDate', description: '' } }),
        ),
      /not one the search finds/,
    );
    assert.throws(
      () => compileVerification(withVerification(marriage, { names: marriage.verification.names.slice(0, 1) })),
      /names 1 parties, but the record has 2/,
    );
    assert.throws(
      () =>
        compileVerification(
          withVerification(birth, {
            details: {
              ...birth.verification.details,
              surname: { compare: 'name', paths: ['child.surname'], description: '' },
            },
          }),
        ),
      /parameter surname twice/,
    );
  });

  test('the real declarations compile', () => {
    for (const record of [birth, death, marriage]) assert.ok(compileVerification(record).parameters.length > 3);
  });
});

describe('forenamesMatch', () => {
  const word = fc.stringMatching(/^[a-zà-ÿ'-]{1,8}$/);
  const name = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => normaliseName(words.join(' ')));

  test("is the store's range [q, q + '!') on normalised names (property)", () => {
    fc.assert(
      fc.property(name, name, fc.constantFrom('', ' ', '-', 'x'), (q, other, joint) => {
        fc.pre(q.length > 0);
        // Another name, q with words after it, or q run into a longer word.
        const stored = joint === '' ? other : normaliseName(`${q}${joint}${other}`);
        assert.equal(forenamesMatch(stored, q), stored >= q && stored < `${q}!`, JSON.stringify({ stored, q }));
      }),
      { numRuns: 3000 },
    );
  });

  test('whole leading words only', () => {
    assert.ok(forenamesMatch('anne marie', 'anne'));
    assert.ok(forenamesMatch('anne marie', 'anne marie'));
    assert.ok(!forenamesMatch('annette', 'anne'));
    assert.ok(!forenamesMatch('anne', 'anne marie'));
    assert.ok(!forenamesMatch('marie anne', 'anne'));
  });
});
