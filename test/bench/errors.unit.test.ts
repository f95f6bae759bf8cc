/**
 * The evaluation's error model keeps to its published limits (at most three errors a record, two a
 * detail), makes each kind of error it names, reports the details it changed, and is seeded.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIELDS, MAX_PER_FIELD, MAX_PER_RECORD, askable, groupOf, withErrors } from '../../bench/lib/errors.ts';
import { Random } from '../../src/generate/random.ts';

const REGISTERED = { surname: 'Ollerenshaw', forenames: 'Margaret Ann', date: '1990-11-20' };
const VALUES = { surnames: ['Smith', 'Jones', 'Patel'], forenames: ['John', 'Mary', 'Aisha'] };

test('at most three errors a record and two a detail, and the details changed are those that differ', () => {
  const r = Random.fromString('errors-test limits');
  const seen = new Set<string>();
  const sizes = new Set<number>();
  for (let i = 0; i < 3000; i++) {
    const { details, changed, errors } = withErrors(REGISTERED, VALUES, r);
    assert.ok(errors.length <= MAX_PER_RECORD, errors.join());
    sizes.add(errors.length);
    for (const field of FIELDS) {
      const on = errors.filter(
        (e) => e.startsWith(`${field}:`) || (field !== 'date' && e === 'names:exchanged'),
      ).length;
      assert.ok(on <= MAX_PER_FIELD, `${field}: ${errors.join()}`);
      assert.equal(changed.has(field), details[field] !== REGISTERED[field], `${field}: ${JSON.stringify(details)}`);
    }
    for (const error of errors) seen.add(error);
  }
  assert.deepEqual([...sizes].sort(), [0, 1, 2, 3]);
  for (const kind of ['keyboard', 'insert', 'delete', 'transpose', 'ocr', 'phonetic', 'real-value', 'missing']) {
    assert.ok(seen.has(`surname:${kind}`) && seen.has(`forenames:${kind}`), kind);
  }
  for (const kind of ['one-digit', 'two-digits', 'day-month', 'same-decade', 'missing'])
    assert.ok(seen.has(`date:${kind}`), kind);
  assert.ok(seen.has('names:exchanged'));
});

test('errors are what they are named: a day and month exchanged, a missing value, a real value of the field', () => {
  const r = Random.fromString('errors-test kinds');
  for (let i = 0; i < 3000; i++) {
    const { details, errors } = withErrors(REGISTERED, VALUES, r);
    if (errors.length !== 1) continue;
    const [error] = errors;
    if (error === 'date:day-month') assert.equal(details.date, '1990-20-11');
    if (error.endsWith(':missing')) assert.equal(details[error.split(':')[0] as 'date'], undefined);
    if (error === 'surname:real-value') assert.ok(VALUES.surnames.includes(details.surname!));
    if (error === 'names:exchanged')
      assert.deepEqual([details.surname, details.forenames], [REGISTERED.forenames, REGISTERED.surname]);
    if (error === 'date:one-digit')
      assert.equal([...details.date!].filter((c, j) => c !== REGISTERED.date[j]).length, 1);
  }
});

test('a seed gives the same errors; queries that cannot be asked are told apart; groups are named in order', () => {
  const once = withErrors(REGISTERED, VALUES, Random.fromString('seed'));
  assert.deepEqual(once, withErrors(REGISTERED, VALUES, Random.fromString('seed')));
  assert.equal(askable({ surname: 'a', forenames: 'b', date: '1990-13-01' }), false);
  assert.equal(askable({ surname: 'a', date: '1990-12-01' }), false);
  assert.equal(askable(REGISTERED), true);
  assert.equal(groupOf(new Set(['date', 'surname'] as const)), 'surname + date');
  assert.equal(groupOf(new Set()), 'none');
});
