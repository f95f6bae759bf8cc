/**
 * The existing service's output, modelled from its documentation (FIELDS.md),
 * for the tests comparing this service with it over the reference folder's mock
 * records: null-stripping and redaction of a stored record, with this service's
 * deliberate differences (a blocked record's links left out, the blocked flag
 * always a boolean), and the differences between two answers as readable lines.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RunningApp } from '../helper.ts';
import { REFERENCE } from './reference-folder.ts';

export const MOCK_DATA = resolve(REFERENCE, 'mock-data');

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export interface Row {
  id: number;
  data: JsonObject;
  [column: string]: Json;
}

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export async function rows(file: string): Promise<Row[]> {
  return JSON.parse(await readFile(resolve(MOCK_DATA, file), 'utf8')) as Row[];
}

// ---------------------------------------------------------------------------
// The existing service's output, modelled
// ---------------------------------------------------------------------------

/** Marks a key the output leaves out. */
const ABSENT = Symbol('absent');

/** Null-valued properties deleted, recursively; array items kept (and cleaned). */
function stripNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) if (item !== null) out[key] = stripNulls(item);
  return out;
}

interface CensorRules {
  /** Dot paths copied uncensored (ids and the blocked flag). */
  readonly always: ReadonlySet<string>;
  /** Dot paths (leaves or lists) shown only with the full-details role. */
  readonly fullOnly: (path: string) => boolean;
  /** Dot path of the record's blocked flag. */
  readonly blockedFlag: string;
  /** Keys holding an embedded registration of the same type (v1 only). */
  readonly links: ReadonlySet<string>;
  /** Keys holding lists (shown whole, or `[]`). */
  readonly lists: ReadonlySet<string>;
}

const readPath = (record: Json, path: string): Json | undefined =>
  path.split('.').reduce<Json | undefined>((value, key) => (isObject(value) ? value[key] : undefined), record);

/**
 * What the existing service sends for a stored record (FIELDS.md 1.1–1.5), with
 * this service's deliberate differences: a blocked record's links are left out, and
 * the blocked flag is always stated as a boolean.
 */
export function referenceOutput(stored: JsonObject, rules: CensorRules, fullDetails: boolean): JsonObject {
  const blocked = readPath(stored, rules.blockedFlag) !== false;
  const walk = (value: Json | undefined, path: string, key: string): Json | typeof ABSENT => {
    if (rules.links.has(key)) {
      if (blocked) return ABSENT; // deliberate: the existing service showed them
      return value == null ? ABSENT : referenceOutput(value as JsonObject, rules, fullDetails);
    }
    if (rules.lists.has(key)) {
      if (blocked || (rules.fullOnly(path) && !fullDetails) || !Array.isArray(value)) return [];
      return value.map(stripNulls);
    }
    if (isObject(value)) {
      const out: JsonObject = {};
      for (const [childKey, child] of Object.entries(value)) {
        const rendered = walk(child, path ? `${path}.${childKey}` : childKey, childKey);
        if (rendered !== ABSENT) out[childKey] = rendered;
      }
      return out;
    }
    if (path === rules.blockedFlag) return blocked; // deliberate: a boolean even when stored null
    if (rules.always.has(path)) return value ?? ABSENT;
    if (blocked) return null;
    if (rules.fullOnly(path) && !fullDetails) return null;
    return value ?? ABSENT;
  };
  return walk(stored, '', '') as JsonObject;
}

/** Birth v0 leaves shown only with full-details (FIELDS.md 2.2); every other non-always leaf is basic. */
const V0_FULL_ONLY = new Set([
  ...['givenName', 'surname', 'fullName', 'qualifier'].flatMap((part) => [
    `subjects.child.originalName.${part}`,
    `subjects.informant.name.${part}`,
  ]),
  'subjects.father.occupation',
  'subjects.mother.occupation',
  'subjects.mother.usualAddress',
  'subjects.informant.usualAddress',
  'subjects.informant.signature',
  'registrarSignature',
]);

export const V0_RULES: CensorRules = {
  always: new Set(['id', 'systemNumber', 'status.blockedRegistration']),
  fullOnly: (path) => V0_FULL_ONLY.has(path),
  blockedFlag: 'status.blockedRegistration',
  links: new Set(),
  lists: new Set(),
};

/** v1 rules for a caller with full-details: visibility then only matters for blocked records. */
export const V1_RULES: CensorRules = {
  always: new Set(['id', 'status.blocked']),
  fullOnly: () => true,
  blockedFlag: 'status.blocked',
  links: new Set(['previousRegistration', 'nextRegistration']),
  lists: new Set(['aliases']),
};

/** Every path where the two differ, as readable lines. */
function differences(actual: unknown, expected: unknown, path = ''): string[] {
  if (isObject(actual) && isObject(expected)) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    return keys.flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      if (!(key in actual)) return [`${at}: missing (reference: ${JSON.stringify(expected[key])})`];
      if (!(key in expected)) return [`${at}: ${JSON.stringify(actual[key])} (reference: absent)`];
      return differences(actual[key], expected[key], at);
    });
  }
  if (Array.isArray(actual) && Array.isArray(expected) && actual.length === expected.length) {
    return actual.flatMap((item, i) => differences(item, expected[i], `${path}[${i}]`));
  }
  return JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`${path || '/'}: ${JSON.stringify(actual)} (reference: ${JSON.stringify(expected)})`];
}

export function assertSameAsReference(actual: unknown, expected: JsonObject, what: string) {
  assert.deepEqual(differences(actual, expected), [], `${what} differs from the reference`);
  assert.deepStrictEqual(actual, expected, what);
}

export const BIRTH_V1 = '/v1/registration/birth';

export async function getOk(app: RunningApp, path: string, headers: Record<string, string>) {
  const response = await app.get(path, headers);
  assert.equal(response.status, 200, `${path}: ${response.text}`);
  return response.body as unknown;
}
