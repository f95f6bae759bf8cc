/**
 * Lookups of every view at `{path}/{id}`, over a real socket, on every store
 * kind (embedded always, PostgreSQL where a server answers): each mock record
 * rendered as its description says with and without full-details, blocked
 * records, leading zeros, and embedded linked registrations.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type Fields,
  type Visibility,
  groupFields,
  isBlocked,
  isLeaf,
  isLink,
  isList,
  readPath,
  visibilityOf,
} from '../../src/records/define.ts';
import type { ViewDescription } from '../../src/records/views.ts';
import { views } from '../record-types.ts';
import { CALLER, FULL_DETAILS, storeKinds } from '../helper.ts';
import {
  FULL_ID,
  type Json,
  expectedRender,
  isObject,
  recordsOf,
  sharedStore,
  storedById,
  storedFor,
  withoutNulls,
} from './record-routes-fixture.ts';

interface Visited {
  readonly path: string;
  readonly kind: 'leaf' | 'list' | 'link';
  readonly visibility: Visibility | undefined;
  readonly present: boolean;
  readonly value: unknown;
}

/**
 * Every leaf, list and link of a rendered record, checking on the way that groups are objects and no key is
 * undescribed.
 */
function visit(fields: Fields, rendered: unknown, path = ''): Visited[] {
  assert.ok(isObject(rendered), `${path || 'the record'} is an object`);
  assert.deepEqual(
    Object.keys(rendered).filter((key) => !(key in fields)),
    [],
    `${path || 'the record'} has only described keys`,
  );
  const out: Visited[] = [];
  for (const [key, field] of Object.entries(fields)) {
    const at = path ? `${path}.${key}` : key;
    const entry = { path: at, present: key in rendered, value: rendered[key] };
    if (isLeaf(field)) out.push({ ...entry, kind: 'leaf', visibility: visibilityOf(field) });
    else if (isList(field)) {
      assert.ok(Array.isArray(entry.value), `${at} is an array`);
      out.push({ ...entry, kind: 'list', visibility: field.visibility });
    } else if (isLink(field)) out.push({ ...entry, kind: 'link', visibility: undefined });
    else out.push(...visit(groupFields(field), entry.value, at));
  }
  return out;
}

const hasLinks = (fields: Fields): boolean =>
  Object.values(fields).some(
    (field) => isLink(field) || (!isLeaf(field) && !isList(field) && hasLinks(groupFields(field))),
  );

/**
 * A blocked record as rendered: its always-shown ids and a true flag, every other leaf null, lists empty,
 * links left out.
 */
function assertOnlyIdAndFlag(view: ViewDescription, rendered: unknown, id: number, where: string) {
  for (const item of visit(view.fields, rendered)) {
    if (item.kind === 'leaf' && item.visibility === 'always') {
      assert.equal(item.value, item.path === view.blockedFlag ? true : id, `${where}: ${item.path}`);
    } else if (item.kind === 'list') {
      assert.deepEqual(item.value, [], `${where}: ${item.path} is empty`);
    } else if (item.kind === 'link') {
      assert.ok(!item.present, `${where}: ${item.path} is left out`);
    } else {
      assert.ok(item.present, `${where}: ${item.path} is present`);
      assert.equal(item.value, null, `${where}: ${item.path} is null`);
    }
  }
}

// ---------------------------------------------------------------------------

for (const kind of await storeKinds()) {
  describe(`record routes on the ${kind} store`, () => {
    const app = sharedStore(kind)();

    for (const view of views) {
      const linked = hasLinks(view.fields);

      describe(`${view.version} ${view.record.name}: lookups at ${view.path}/{${view.idParam}}`, () => {
        test(`${FULL_ID} with full-details has every field filled, no null, and only described keys`, async () => {
          const stored = storedById(view, FULL_ID);
          const response = await app().get(`${view.path}/${FULL_ID}`, FULL_DETAILS);
          assert.equal(response.status, 200, response.text);
          for (const item of visit(view.fields, response.body)) {
            const value = readPath(stored, item.path);
            if (item.kind === 'link') {
              assert.ok(value == null, `the mock ${FULL_ID} has no ${item.path}`);
              assert.ok(!item.present, `${item.path} is absent when nothing is linked`);
              continue;
            }
            assert.notEqual(item.value, null, `${item.path} is not null`);
            if (!view.project) assert.notEqual(value, null, `the mock fills ${item.path}`);
            if (item.kind === 'list') {
              assert.ok((item.value as unknown[]).length > 0, `${item.path} is filled`);
              for (const entry of item.value as unknown[]) {
                assert.ok(isObject(entry), `${item.path} holds objects`);
                assert.ok(
                  Object.values(entry).every((v) => v !== null),
                  `${item.path} items hold no null`,
                );
              }
              assert.deepEqual(item.value, (value as unknown[]).map(withoutNulls), `${item.path} is as stored`);
            } else if (value == null) {
              assert.ok(!item.present, `${item.path} is absent: nothing is recorded`);
            } else {
              assert.deepEqual(item.value, value, `${item.path} is as stored`);
            }
          }
          assert.deepEqual(response.body, expectedRender(view.fields, view.blockedFlag, stored, true));
        });

        test(`${FULL_ID} without full-details: unmarked leaves null, basic leaves as stored`, async () => {
          const stored = storedById(view, FULL_ID);
          const response = await app().get(`${view.path}/${FULL_ID}`, CALLER);
          assert.equal(response.status, 200, response.text);
          let hidden = 0;
          let basic = 0;
          for (const item of visit(view.fields, response.body)) {
            const value = readPath(stored, item.path);
            if (item.kind === 'link') {
              assert.ok(!item.present, `${item.path} is absent when nothing is linked`);
            } else if (item.visibility === 'full') {
              hidden++;
              if (item.kind === 'list') assert.deepEqual(item.value, [], `${item.path} is hidden as []`);
              else {
                assert.ok(item.present, `${item.path} is present`);
                assert.equal(item.value, null, `${item.path} is hidden as null`);
              }
            } else {
              basic++;
              if (item.kind === 'list')
                assert.deepEqual(
                  item.value,
                  ((value as unknown[]) ?? []).map(withoutNulls),
                  `${item.path} is as stored`,
                );
              else if (value == null) assert.ok(!item.present, `${item.path} is absent: nothing is recorded`);
              else assert.deepEqual(item.value, value, `${item.path} is as stored`);
            }
          }
          assert.ok(hidden > 0 && basic > 0, 'the view has both restricted and basic fields');
          assert.deepEqual(response.body, expectedRender(view.fields, view.blockedFlag, stored, false));
        });

        test('every mock record renders as its description says, with and without full-details', async () => {
          for (const v1 of recordsOf(view)) {
            const stored = storedFor(view, v1);
            for (const [audience, headers] of [
              ['full-details', FULL_DETAILS],
              ['basic', CALLER],
            ] as const) {
              const response = await app().get(`${view.path}/${v1.id}`, headers);
              assert.equal(response.status, 200, `${v1.id}: ${response.text}`);
              assert.equal(response.headers.get('cache-control'), 'no-store');
              assert.deepEqual(
                response.body,
                expectedRender(view.fields, view.blockedFlag, stored, audience === 'full-details'),
                `${v1.id} (${audience})`,
              );
            }
          }
        });

        test('a blocked record shows only its id and the blocked flag, its links left out', async () => {
          const blocked = recordsOf(view).filter((v1) => isBlocked(v1, view.record.blockedFlag));
          assert.ok(blocked.length > 0, 'the mock has a blocked record of this type');
          for (const v1 of blocked) {
            for (const headers of [FULL_DETAILS, CALLER]) {
              const response = await app().get(`${view.path}/${v1.id}`, headers);
              assert.equal(response.status, 200, response.text);
              assertOnlyIdAndFlag(view, response.body, v1.id as number, `blocked ${v1.id}`);
            }
          }
        });

        test('a lookup ignores leading zeros in the id', async () => {
          const plain = await app().get(`${view.path}/${FULL_ID}`, FULL_DETAILS);
          const padded = await app().get(`${view.path}/000${FULL_ID}`, FULL_DETAILS);
          assert.equal(padded.status, 200);
          assert.deepEqual(padded.body, plain.body);
        });

        if (linked) {
          test('linked registrations are embedded, each redacted by its own blocked flag', async () => {
            let shownLinks = 0;
            let blockedLinks = 0;
            for (const v1 of recordsOf(view)) {
              if (isBlocked(v1, view.blockedFlag)) continue;
              for (const key of ['previousRegistration', 'nextRegistration']) {
                const target = v1[key];
                if (!isObject(target)) continue;
                for (const [audience, headers] of [
                  ['full-details', FULL_DETAILS],
                  ['basic', CALLER],
                ] as const) {
                  const response = await app().get(`${view.path}/${v1.id}`, headers);
                  const link = (response.body as Json)[key];
                  const where = `${v1.id} ${key} (${audience})`;
                  assert.ok(isObject(link), `${where} is embedded`);
                  assert.equal(link.id, target.id, `${where} is ${String(target.id)}`);
                  if (isBlocked(target, view.blockedFlag)) {
                    blockedLinks++;
                    assertOnlyIdAndFlag(view, link, target.id as number, where);
                  } else {
                    shownLinks++;
                    assert.equal(readPath(link, view.blockedFlag), false, `${where} is not blocked`);
                    assert.deepEqual(
                      link,
                      expectedRender(view.fields, view.blockedFlag, target, audience === 'full-details'),
                      where,
                    );
                  }
                }
              }
            }
            assert.ok(shownLinks > 0, 'the mock links records of this type');
            if (view.record.name === 'birth') assert.ok(blockedLinks > 0, 'the mock links a blocked birth');
          });
        }
      });
    }
  });
}
