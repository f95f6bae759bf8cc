import assert from 'node:assert/strict';
import test, { describe } from 'node:test';
import { DescriptionError, checkDescription, fieldAt, requireField } from '../../src/records/check.ts';
import { type RecordDescription, isoDate } from '../../src/records/define.ts';
import { birth } from '../../src/records/types/birth.ts';
import { death } from '../../src/records/types/death.ts';
import { marriage } from '../../src/records/types/marriage.ts';
import { partnership } from '../../src/records/types/partnership.ts';
import { views, builtInTypes as records } from '../record-types.ts';
import { compileView } from '../../src/render/view.ts';
import { recordType } from '../../src/load/conversion.ts';

// A fresh object each time: a description is remembered once it has passed.
const changed = <R extends RecordDescription>(record: R, change: Partial<RecordDescription>): RecordDescription => ({
  ...record,
  ...change,
});
const withParty = (record: RecordDescription, i: number, change: object): RecordDescription =>
  changed(record, {
    search: { ...record.search, parties: record.search.parties.map((p, j) => (j === i ? { ...p, ...change } : p)) },
  });

const fails = (description: RecordDescription, message: RegExp) =>
  assert.throws(
    () => checkDescription(description),
    (error: unknown) => error instanceof DescriptionError && message.test(error.message),
  );

describe('checkDescription', () => {
  test('every described type passes', () => {
    for (const record of records) checkDescription(record);
  });

  test('a blocked flag that names no field, or not a flag, is named with the description and the key', () => {
    fails(
      changed(death, { blockedFlag: 'status.blockd' }),
      /^record type death: blockedFlag: 'status.blockd' is not a field of the record$/,
    );
    fails(
      changed(birth, { blockedFlag: 'child.surname' }),
      /^record type birth: blockedFlag: 'child.surname' is not a flag \(true or false\)$/,
    );
  });

  test("a party's names must be text fields and its dates date fields", () => {
    fails(
      withParty(death, 0, { surname: 'deceased.surnam' }),
      /record type death: search.parties\[0\].surname: 'deceased.surnam' is not a field of the record/,
    );
    fails(
      withParty(marriage, 1, { forenames: 'dateOfMarriage' }),
      /search.parties\[1\].forenames: 'dateOfMarriage' is not a text field/,
    );
    fails(
      withParty(partnership, 0, { dates: ['dateOfPartnership', 'partner1.surname'] }),
      /search.parties\[0\].dates: 'partner1.surname' is not a date field/,
    );
    fails(withParty(birth, 0, { dates: [] }), /search.parties\[0\].dates: a party is found by at least one date/);
    fails(
      changed(birth, { search: { ...birth.search, parties: [] } }),
      /search.parties: a record must be findable through at least one party/,
    );
  });

  test('a path through a leaf, a list or a link names nothing; an inherited key is not a field', () => {
    assert.equal(fieldAt(birth.fields, 'child.surname.x'), undefined);
    assert.equal(fieldAt(death.fields, 'deceased.aliases.surname'), undefined);
    assert.equal(fieldAt(birth.fields, 'child.toString'), undefined);
    assert.throws(
      () => requireField(birth, 'subscription', 'status.constructor', 'flag'),
      /'status.constructor' is not a field of the record/,
    );
  });

  test('a date that falls after another must name a date field', () => {
    const withDate = (after: string) =>
      changed(death, { fields: { ...death.fields, burialDate: isoDate('Date of burial', { after, days: [1, 20] }) } });
    checkDescription(withDate('deceased.dateOfDeath'));
    fails(
      withDate('deceased.dateOfDeth'),
      /^record type death: fields.burialDate \(after\): 'deceased.dateOfDeth' is not a field of the record$/,
    );
    fails(withDate('deceased.surname'), /fields.burialDate \(after\): 'deceased.surname' is not a date field/);
  });

  test('a name that cannot be a URL segment or a table prefix is refused', () => {
    fails(changed(birth, { name: 'Birth Records' }), /name: 'Birth Records' must be lower-case letters and digits/);
  });

  test('a mistaken description fails where it is compiled at start: the views and the loader', () => {
    const broken = changed(death, { blockedFlag: 'status.blockd' });
    const view = views.find((v) => v.record === death && v.version === 'v1');
    assert.ok(view);
    assert.throws(() => compileView({ ...view, record: broken }), /record type death: blockedFlag/);
    assert.throws(() => recordType(withParty(death, 0, { surname: 'deceased.surnam' })), /search.parties\[0\].surname/);
  });
});

describe('the system number', () => {
  test('is digits, at most 18 of them, leading zeros aside, wherever it is read', async () => {
    const { isSystemNumber, SYSTEM_NUMBER_PATTERN } = await import('../../src/records/system-number.ts');
    for (const text of ['1', '123456789', '9'.repeat(18), `000${'9'.repeat(18)}`])
      assert.ok(isSystemNumber(text), text);
    for (const text of ['', '9'.repeat(19), '-1', '1e3', '12 3', '١٢٣', '0x10']) assert.ok(!isSystemNumber(text), text);
    assert.equal(SYSTEM_NUMBER_PATTERN, '^0*[0-9]{1,18}$', 'as the OpenAPI document states it');
  });

  test('is keyed without its leading zeros, one rule for every reader', async () => {
    const { canonicalSystemNumber, isCanonicalSystemNumber, isSystemNumber } = await import(
      '../../src/records/system-number.ts'
    );
    const cases = [
      ['0123', '123'],
      ['000', '0'],
      ['0', '0'],
      ['123456789', '123456789'],
      [`000${'9'.repeat(18)}`, '9'.repeat(18)],
    ];
    for (const [typed, keyed] of cases) {
      assert.equal(canonicalSystemNumber(typed), keyed, typed);
      assert.ok(isCanonicalSystemNumber(keyed), keyed);
    }
    for (const text of ['0123', '00', '', '9'.repeat(19), '1a']) assert.ok(!isCanonicalSystemNumber(text), text);
    // Every system number a route accepts has a canonical form the store keys.
    for (const text of ['0', '007', '9'.repeat(18)])
      assert.ok(isSystemNumber(text) && isCanonicalSystemNumber(canonicalSystemNumber(text)), text);
  });
});
