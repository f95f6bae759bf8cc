/**
 * A blocked record stored without a key its description now has (a field described after the
 * record was loaded) renders that key as an unblocked record does for the same caller: left out
 * where the caller may see the field, null where the caller's roles hide it. Every other field of
 * a blocked record is null. Checked for every view of every record type.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Fields, groupFields, isLeaf, isLink, isList, visibilityOf } from '../../src/records/define.ts';
import { views } from '../record-types.ts';
import { compileView } from '../../src/render/view.ts';

/** Dot paths of the leaves of a field tree (not inside lists or links). */
function leaves(fields: Fields, prefix = ''): { path: string; visibility: string }[] {
  return Object.entries(fields).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    if (isLeaf(field)) return [{ path, visibility: visibilityOf(field) }];
    if (isList(field) || isLink(field)) return [];
    return leaves(groupFields(field), `${path}.`);
  });
}

const read = (value: unknown, path: string) =>
  path
    .split('.')
    .reduce<unknown>(
      (v, key) => (v !== null && typeof v === 'object' && key in v ? (v as Record<string, unknown>)[key] : undefined),
      value,
    );
const has = (value: unknown, path: string) => {
  const keys = path.split('.');
  const holder = read(value, keys.slice(0, -1).join('.') || '') ?? (keys.length === 1 ? value : undefined);
  return holder !== null && typeof holder === 'object' && keys[keys.length - 1] in holder;
};

/** A stored v1 record of the type with only its id and its blocked flag. */
function storedWithout(blockedFlag: string, blocked: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { id: 1 };
  let holder = out;
  const keys = blockedFlag.split('.');
  for (const key of keys.slice(0, -1)) holder = (holder[key] = {}) as Record<string, unknown>;
  holder[keys[keys.length - 1]] = blocked;
  return out;
}

for (const view of views.filter((v) => v.version === 'v1')) {
  const compiled = compileView(view);
  test(`${view.path}: a blocked record renders a key it was stored without as an unblocked one does`, () => {
    for (const fullDetails of [true, false]) {
      const blocked = compiled.render(storedWithout(view.blockedFlag, true), { fullDetails });
      const open = compiled.render(storedWithout(view.blockedFlag, false), { fullDetails });
      for (const { path, visibility } of leaves(view.fields)) {
        if (visibility === 'always') continue;
        assert.equal(has(blocked, path), has(open, path), `${path} (full-details ${fullDetails})`);
        assert.equal(read(blocked, path), read(open, path), `${path} (full-details ${fullDetails})`);
        if (visibility === 'full' && !fullDetails)
          assert.equal(read(blocked, path), null, `${path} is hidden by the caller's roles`);
        if (fullDetails) assert.equal(has(blocked, path), false, `${path} was not stored`);
      }
    }
  });

  test(`${view.path}: a blocked record stored with a key shows it as null`, () => {
    const stored = storedWithout(view.blockedFlag, true);
    const [first] = leaves(view.fields).filter((leaf) => leaf.visibility !== 'always' && !leaf.path.includes('.'));
    if (!first) return;
    stored[first.path] = 'anything';
    const rendered = compiled.render(stored, { fullDetails: true });
    assert.equal(rendered[first.path], null);
  });
}
