/**
 * A new field is one edit to its type's description: the generator and the mock's records give it
 * a value made from the description (what it declares it holds, or when it falls), every other
 * value stays as it was, and the record is stored and rendered with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordType } from '../../src/data/entries.ts';
import { generateRecords } from '../../src/generate/records.ts';
import { FULL_ID, mockRecords } from '../../src/mock/dataset.ts';
import { type RecordDescription, basic, group, groupFields, isoDate, readPath, text } from '../../src/records/define.ts';
import { death } from '../../src/records/types/death.ts';
import { v1View } from '../../src/records/views.ts';
import { compileView } from '../../src/render/view.ts';
import { builtInScenarios } from '../record-types.ts';

type Rec = Record<string, unknown>;

/** Deaths with three new optional fields: a place, a date after the death, and text that declares nothing. */
const deathWith: RecordDescription = {
  ...death,
  fields: {
    ...death.fields,
    deceased: group('The person whose death was registered', {
      ...groupFields(death.fields.deceased),
      placeOfBurial: basic(text('Where the deceased was buried', 'place')),
    }),
    burialDate: isoDate('Date of burial', { after: 'deceased.dateOfDeath', days: [3, 30] }),
    funeralDirector: text('The funeral director'),
  },
};

/** Deaths with only the first of them: a field the tuned builder does not write, already described. */
const deathWithPlace: RecordDescription = { ...death, fields: { ...death.fields, deceased: deathWith.fields.deceased } };

/** The record without the new fields (and without the place too, unless `keepPlace`), in its links too. */
const withoutNew = (record: Rec, keepPlace = false): Rec => {
  const { burialDate, funeralDirector, ...rest } = record;
  const { placeOfBurial, ...deceased } = rest.deceased as Rec;
  const out: Rec = keepPlace ? rest : { ...rest, deceased };
  for (const link of ['previousRegistration', 'nextRegistration']) if (out[link]) out[link] = withoutNew(out[link] as Rec, keepPlace);
  return out;
};

test('the generator fills a new field from its description, and leaves every other value as it was', () => {
  const stored = recordType(deathWith);
  const before = [...generateRecords(death, { count: 600, seed: 'new field' })];
  const after = [...generateRecords(deathWith, { count: 600, seed: 'new field' })] as Rec[];
  assert.deepEqual(after.map((record) => withoutNew(record)), before);
  for (const record of after) {
    assert.ok(!('reason' in stored.toStored(record)), `record ${record.id} is storable`);
    assert.equal(typeof readPath(record, 'deceased.placeOfBurial'), 'string');
    assert.match(record.funeralDirector as string, /^The funeral director$/);
    const died = readPath(record, 'deceased.dateOfDeath') as string;
    const buried = record.burialDate as string;
    const days = (Date.parse(buried) - Date.parse(died)) / 86_400_000;
    assert.ok(days >= 3 && days <= 30, `buried ${buried}, ${days} days after ${died}`);
  }
  assert.ok(new Set(after.map((r) => readPath(r, 'deceased.placeOfBurial'))).size > 20, 'places vary');
});

test('a field added beside one already filled from the description leaves that one as it was', () => {
  const before = [...generateRecords(deathWithPlace, { count: 600, seed: 'new field' })];
  const after = [...generateRecords(deathWith, { count: 600, seed: 'new field' })] as Rec[];
  assert.deepEqual(after.map((record) => withoutNew(record, true)), before);
});

test("the mock's records fill a new field; every other value is as it was", () => {
  const before = mockRecords([death], builtInScenarios).death as Rec[];
  const after = mockRecords([deathWith], builtInScenarios).death as Rec[];
  const full = after.find((r) => r.id === FULL_ID)!;
  assert.equal(typeof readPath(full, 'deceased.placeOfBurial'), 'string');
  assert.match(full.burialDate as string, /^\d{4}-\d{2}-\d{2}$/);
  assert.ok((full.burialDate as string) > (readPath(full, 'deceased.dateOfDeath') as string));
  assert.deepEqual(withoutNew(full), before.find((r) => r.id === FULL_ID));
  // The others are their scenarios' records, written without the field: it is filled in them too.
  const others = after.filter((r) => r.id !== FULL_ID);
  for (const record of others) assert.equal(typeof readPath(record, 'deceased.placeOfBurial'), 'string', `${record.id as number} has the new place`);
  assert.deepEqual(others.map((record) => withoutNew(record)), before.filter((r) => r.id !== FULL_ID));
  const stored = recordType(deathWith).toStored(full);
  assert.ok(!('reason' in stored));
  const rendered = compileView(v1View(deathWith)).render(full, { fullDetails: true });
  assert.equal(readPath(rendered, 'deceased.placeOfBurial'), readPath(full, 'deceased.placeOfBurial'));
  assert.equal(rendered.burialDate, full.burialDate);
});
