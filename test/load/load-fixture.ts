/**
 * What the loadFiles and `lev-api load` tests share: valid births made from the
 * mock, their NDJSON text, a temporary folder, counts of what a store holds and
 * of what a load did, the LoadError a failing load gives, and an empty store per
 * case of a suite.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { LoadError, type LoadResult } from '../../src/load/loader.ts';
import { mockRecords } from '../../src/mock/dataset.ts';
import { tableNames } from '../../src/store/record-tables.ts';
import { type StoreKind, type TestStore, emptyStore } from '../helper.ts';
import { builtInScenarios, builtInTypes } from '../record-types.ts';

export type Json = Record<string, any>;

export const mock = mockRecords(builtInTypes, builtInScenarios) as Record<string, Json[]>;

/** `count` valid births: the mock births over and over, with ids from `firstId`. */
export function births(count: number, firstId = 1): Json[] {
  return Array.from({ length: count }, (_, i) => ({
    ...structuredClone(mock.birth[i % mock.birth.length]),
    id: firstId + i,
  }));
}

export const ndjson = (entries: unknown[]) => entries.map((e) => JSON.stringify(e)).join('\n') + '\n';

export async function tempDir(t: Pick<TestContext, 'after'>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lev-load-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** How many of the records with ids `from` to `to` - 1 the store holds. */
export async function held(store: TestStore, type: string, from: number, to: number): Promise<number> {
  let found = 0;
  for (let id = from; id < to; id++) if ((await store.lookupJson(type, String(id))) !== undefined) found++;
  return found;
}

/** The rows of a PostgreSQL table (in a stable order), or undefined on another backend. */
export async function rowsOf(store: TestStore, table: string): Promise<unknown[] | undefined> {
  if (store.kind !== 'postgres') return undefined;
  return store.driver.query(`SELECT * FROM ${table} ORDER BY 1, 2, 3, 4`);
}

export const counts = (result: LoadResult) => {
  const { read, inserted, updated, unchanged, rejected } = result;
  return { read, inserted, updated, unchanged, rejected };
};
export const expected = (c: Partial<ReturnType<typeof counts>>) => ({
  read: 0,
  inserted: 0,
  updated: 0,
  unchanged: 0,
  rejected: 0,
  ...c,
});

export async function loadError(promise: Promise<unknown>): Promise<LoadError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof LoadError, `expected a LoadError, got ${error}`);
    return error;
  }
  assert.fail('the load did not fail');
}

/**
 * An empty store for each case of a suite (`fresh()`), and a temporary folder
 * for its files (`file(name)`). On PostgreSQL one schema, emptied before each
 * case; a new memory store costs nothing.
 */
export async function loadCases(t: Pick<TestContext, 'after'>, kind: StoreKind) {
  const shared = await emptyStore(t, kind);
  const fresh = async () => {
    if (shared.kind === 'memory') return emptyStore(t, kind);
    await shared.driver.exec(`TRUNCATE ${builtInTypes.map((d) => tableNames(d.name).records).join(', ')} CASCADE`);
    return shared;
  };
  const dir = await tempDir(t);
  return { fresh, file: (name: string) => join(dir, name) };
}
