/**
 * A tuned builder's records take their shape from the description: every key present, in the
 * description's order (records are compared as serialised), null groups derived from the field
 * tree, and a group the builder shares as "nothing recorded" copied before anything is added to it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateRecords } from '../../src/generate/records.ts';
import { nullGroup, shapeOf } from '../../src/generate/shape.ts';
import { flag, group, groupFields, link, list, text } from '../../src/records/define.ts';
import { birth } from '../../src/records/types/birth.ts';

const fields = {
  first: text('First'),
  person: group('A person', {
    title: text('Title'),
    name: text('Name'),
    aliases: list('full', 'Other names', { name: text('Name') }),
    dead: flag('Dead'),
  }),
  last: text('Last'),
  next: link('Next'),
};

test('a null group is the blank of its field tree, frozen to the lists inside it', () => {
  const none = nullGroup(fields.person);
  assert.equal(JSON.stringify(none), '{"title":null,"name":null,"aliases":[],"dead":null}');
  assert.ok(Object.isFrozen(none) && Object.isFrozen(none.aliases));
});

test("the keys a builder does not write are added in the description's order, lists fresh", () => {
  const shape = shapeOf(fields, { first: 'a', person: { name: 'n', dead: false }, last: 'z' });
  const one = shape({ first: 'a', person: { name: 'Ann', dead: false }, last: 'z' });
  const two = shape({ first: 'b', person: { name: 'Bob', dead: true }, last: 'y' });
  assert.equal(
    JSON.stringify(one),
    '{"first":"a","person":{"title":null,"name":"Ann","aliases":[],"dead":false},"last":"z","next":null}',
  );
  assert.notEqual(one.person.aliases, two.person.aliases);
});

test('a shared null group is copied, never written into', () => {
  const none = nullGroup({ name: text('Name') });
  const shape = shapeOf(fields, { first: 'a', person: { name: null }, last: 'z', next: null });
  const record = shape({ first: 'a', person: none, last: 'z', next: null });
  assert.deepEqual(record.person, { title: null, name: null, aliases: [], dead: null });
  assert.deepEqual(none, { name: null });
});

test('a builder that writes every key is left as it is', () => {
  const sample = { first: 'a', person: { title: null, name: 'n', aliases: [], dead: false }, last: 'z', next: null };
  assert.equal(shapeOf(fields, sample)(sample), sample);
});

test('a leaf added to a group a tuned builder writes as nothing recorded is filled, not refused', () => {
  const father = group("The child's father", { ...groupFields(birth.fields.father), nickname: text('Nickname') });
  const births = [
    ...generateRecords({ ...birth, fields: { ...birth.fields, father } }, { count: 200, seed: 'null group' }),
  ];
  const without = births.filter((record) => (record.father as Record<string, unknown>).forenames === null);
  assert.ok(without.length > 0, 'some births name no father');
  for (const record of births) assert.equal(typeof (record.father as Record<string, unknown>).nickname, 'string');
});
