/**
 * How a scenario becomes its record (src/mock/dataset.ts): what the scenario's `record` gives is
 * kept, null included, and only what it leaves undefined is filled from the description (left
 * out of a record written whole, unless it shows every field or is blocked); a later
 * scenario with an earlier one's id is the same record; a scenario file is what defineScenarios()
 * made, and one it cannot be is refused when it is defined.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defineScenarios, isDefinedScenarios, mockRecords, recordOf } from '../../src/mock/dataset.ts';
import { readPath } from '../../src/records/define.ts';
import { testfixture } from '../fixtures/testfixture/description.ts';
import { fixtureScenarios } from '../fixtures/testfixture/scenarios.ts';

type Rec = Record<string, unknown>;
const search = { surname: 'Ambler', forenames: 'Toby', dateOfBirth: '2015-09-30' };
const recordsOf = (scenarios: object[]) =>
  mockRecords([testfixture], [{ type: 'testfixture', scenarios: scenarios as never }]).testfixture as Rec[];

test("a null the scenario's record gives is kept; a field it leaves undefined is filled", () => {
  const [record] = recordsOf([
    { id: 1, type: 'testfixture', shows: '', search, record: { court: null, adopters: { names: null } } },
  ]);
  assert.equal(record.court, null);
  assert.equal(readPath(record, 'adopters.names'), null);
  assert.equal(typeof readPath(record, 'adopters.address'), 'string');
  assert.equal(readPath(record, 'child.surname'), 'Ambler', 'named as its search asks');
});

test(
  'a record written whole (recordOf) is kept as written: a field it does not give is left out, neither ' +
    'invented nor null',
  () => {
    const status = { blocked: false };
    const whole = recordOf(
      testfixture,
      { court: 'Kestlewick Family Court', child: { surname: 'Ambler' }, status },
      { adopters: { names: null } },
    );
    assert.deepEqual(whole, {
      court: 'Kestlewick Family Court',
      child: { surname: 'Ambler' },
      status,
      adopters: { names: null },
    });
    const [record] = recordsOf([{ id: 1, type: 'testfixture', shows: '', search, record: whole }]);
    assert.equal(record.court, 'Kestlewick Family Court');
    assert.equal(readPath(record, 'child.surname'), 'Ambler');
    assert.equal(readPath(record, 'child.forenames'), 'Toby', "the search's forenames, where the record states none");
    assert.equal(readPath(record, 'adopters.names'), null, 'a null it gives is kept');
    assert.ok(
      !('address' in (record.adopters as Rec)) && !('dateOfOrder' in record) && !('nextRegistration' in record),
      'the rest is left out',
    );
    assert.throws(() => recordOf(testfixture, { nope: 1 }), /there is no field nope/);
    assert.throws(() => recordOf(testfixture, { child: { nope: 1 } }), /there is no field child\.nope/);
  },
);

test('a record written whole is filled where it must show every field (123456789), and where it is blocked', () => {
  const whole = recordOf(testfixture, {
    court: 'Kestlewick Family Court',
    adopters: { names: null },
    status: { blocked: false },
  });
  const blocked = recordOf(testfixture, { status: { blocked: true } });
  const [full, hidden] = recordsOf([
    { id: 123456789, type: 'testfixture', shows: '', search, record: whole },
    { id: 2, type: 'testfixture', shows: '', search, record: blocked },
  ]);
  assert.equal(full.court, 'Kestlewick Family Court');
  assert.equal(readPath(full, 'adopters.names'), null, 'a null it gives is kept');
  assert.equal(typeof readPath(full, 'adopters.address'), 'string');
  // Stored with every key, a blocked record's answer shows each as hidden, telling nothing of what it records.
  assert.equal(readPath(hidden, 'status.blocked'), true);
  assert.equal(typeof readPath(hidden, 'adopters.address'), 'string');
});

test("a later scenario with an earlier one's id is the same record, found another way", () => {
  const records = recordsOf([
    { id: 1, type: 'testfixture', shows: '', search },
    { id: 1, type: 'testfixture', shows: 'the same', search: { ...search, forenames: 'Tobias' } },
  ]);
  assert.deepEqual(
    records.map((r) => r.id),
    [1],
  );
  assert.equal(readPath(records[0], 'child.forenames'), 'Toby');
});

test('a scenario file is what defineScenarios made; one it cannot be is refused, named', () => {
  assert.ok(isDefinedScenarios(fixtureScenarios));
  assert.ok(!isDefinedScenarios({ ...fixtureScenarios }), 'an object of the shape is not one');
  const one = { id: 7, type: 'testfixture', shows: '', search };
  assert.throws(
    () => defineScenarios({ type: 'testfixture', scenarios: [{ ...one, type: 'other' }] }),
    /scenarios of testfixture: 7 is of the type other/,
  );
  assert.throws(
    () => defineScenarios({ type: 'testfixture', scenarios: [{ id: 7, type: 'testfixture', shows: '' }] }),
    /7 has neither a search nor a close match/,
  );
  assert.throws(
    () => defineScenarios({ type: 'testfixture', scenarios: [one, { ...one, record: {} }] }),
    /7 is given a record twice/,
  );
});
