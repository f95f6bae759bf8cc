/** How record types are named in sentences, from their descriptions' `noun` and `plural`. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { capitalised, inWords, pluralOf } from '../../src/records/wording.ts';
import { builtInTypes as records } from '../record-types.ts';

test('lists read as a sentence does: one word alone, two with the last word, more with commas', () => {
  assert.equal(inWords([], 'or'), '');
  assert.equal(inWords(['birth'], 'or'), 'birth');
  assert.equal(inWords(['birth', 'death'], 'and'), 'birth and death');
  assert.equal(inWords(['birth', 'death', 'marriage', 'partnership'], 'or'), 'birth, death, marriage or partnership');
});

test("a plural is the description's own, or its noun with an s", () => {
  assert.equal(pluralOf({ noun: 'civil partnership' }), 'civil partnerships');
  assert.equal(pluralOf({ noun: 'adoption', plural: 'adoptions and re-adoptions' }), 'adoptions and re-adoptions');
  assert.equal(capitalised('civil partnerships'), 'Civil partnerships');
  assert.equal(capitalised(''), '');
});

test('every described type has a noun in lower case, which its title begins with', () => {
  for (const record of records) {
    assert.match(record.noun, /^[a-z][a-z ]*$/, record.name);
    assert.ok(
      record.title.toLowerCase().startsWith(record.noun),
      `${record.name}: "${record.title}" begins with "${record.noun}"`,
    );
  }
  // The built-in four, then any type added since, each by its own plural.
  const plurals = ['births', 'deaths', 'marriages', 'civil partnerships', ...records.slice(4).map(pluralOf)];
  assert.equal(
    inWords(records.map(pluralOf), 'and'),
    `${plurals.slice(0, -1).join(', ')} and ${plurals[plurals.length - 1]}`,
  );
});
