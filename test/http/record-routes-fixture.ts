/**
 * What the record-route tests share: one store filled with the mock dataset per
 * store kind, apps over it, and what a stored record must render as, worked out
 * by walking the view descriptions over the built-in mock records and their
 * scenario files, never retyped from them.
 */
import assert from 'node:assert/strict';
import { before } from 'node:test';
import type { Config } from '../../src/config/index.ts';
import { FULL_ID, mockRecords } from '../../src/mock/dataset.ts';
import {
  type Fields,
  type Visibility,
  HIDDEN,
  groupFields,
  isBlocked,
  isLeaf,
  isLink,
  isList,
  visibilityOf,
} from '../../src/records/define.ts';
import type { ViewDescription } from '../../src/records/views.ts';
import { builtInTypes, builtInScenarios } from '../record-types.ts';
import { type RunningApp, type StoreKind, type TestStore, filledStore, startApp, suiteContext } from '../helper.ts';

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export { FULL_ID };

// ---------------------------------------------------------------------------
// The app, once per suite
// ---------------------------------------------------------------------------

/**
 * One store filled with the mock dataset per store kind, opened before the
 * enclosing suite's tests; apps over it (with any configuration) are started
 * before the tests of the suite that asks for them. Everything is closed, apps
 * first, when the suite that opened the store ends.
 */
export function sharedStore(kind: StoreKind) {
  let store: TestStore | undefined;
  const context = suiteContext();
  before(async () => {
    store = await filledStore(context, kind);
  });
  /** An app over the shared store, started before the calling suite's tests. */
  return function appFor(config?: Config): () => RunningApp {
    let running: RunningApp | undefined;
    before(async () => {
      assert.ok(store, 'the store is open');
      running = await startApp(context, store, config);
    });
    return () => {
      assert.ok(running, 'the app is running');
      return running;
    };
  };
}

// ---------------------------------------------------------------------------
// Stored records and what the description says they look like
// ---------------------------------------------------------------------------

const mock = mockRecords(builtInTypes, builtInScenarios) as unknown as Record<string, Json[]>;

/** Every stored (v1) record of the view's type. */
export const recordsOf = (view: ViewDescription): Json[] => mock[view.record.name] ?? [];

/** The stored record in the view's own shape (v0 is a projection of v1). */
export function storedFor(view: ViewDescription, v1: Json): Json {
  return (view.project ? view.project(v1) : v1) as Json;
}

/** The stored v1 record of the view's type with that id. */
export function storedV1(view: ViewDescription, id: number): Json {
  const v1 = recordsOf(view).find((record) => record.id === id);
  assert.ok(v1, `the mock has ${view.record.name} ${id}`);
  return v1;
}

export const storedById = (view: ViewDescription, id: number): Json => storedFor(view, storedV1(view, id));

const shown = (visibility: Visibility, blocked: boolean, fullDetails: boolean) =>
  visibility === 'always' || (!blocked && (visibility === 'basic' || fullDetails));

export const withoutNulls = (item: unknown): Json =>
  Object.fromEntries(Object.entries(isObject(item) ? item : {}).filter(([, value]) => value != null));

function setPath(target: Json, path: string, value: unknown) {
  const keys = path.split('.');
  let holder = target;
  for (const key of keys.slice(0, -1)) holder = holder[key] as Json;
  holder[keys[keys.length - 1]] = value;
}

/**
 * What a record must render as, worked out from the description alone: hidden
 * leaves null, visible unrecorded leaves absent, groups always present, lists
 * `[]` when hidden or missing, links redacted by their own flag and left out of
 * a blocked record, and the blocked flag stated as a boolean.
 */
export function expectedRender(fields: Fields, blockedFlag: string, stored: unknown, fullDetails: boolean): Json {
  const blocked = isBlocked(stored, blockedFlag);
  const walk = (group: Fields, value: unknown): Json => {
    const source = isObject(value) ? value : {};
    const out: Json = {};
    for (const [key, field] of Object.entries(group)) {
      const v = source[key];
      let rendered: unknown;
      if (isLeaf(field))
        rendered = shown(visibilityOf(field), blocked, fullDetails) && v !== HIDDEN ? (v ?? undefined) : null;
      else if (isList(field))
        rendered = shown(field.visibility, blocked, fullDetails) && Array.isArray(v) ? v.map(withoutNulls) : [];
      else if (isLink(field))
        rendered = blocked || v == null ? undefined : expectedRender(fields, blockedFlag, v, fullDetails);
      else rendered = walk(groupFields(field), v);
      if (rendered !== undefined) out[key] = rendered;
    }
    return out;
  };
  const out = walk(fields, stored);
  setPath(out, blockedFlag, blocked);
  return out;
}
