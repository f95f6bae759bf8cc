/**
 * Values made from a record description alone, for the generator (a field its tuned builder does
 * not know, a type it has no builder for) and the mock (its fully filled records, a type it has
 * no hand-written records for). A text leaf is given what it declares it holds (`text(d, 'surname')`,
 * records/define.ts), a party's names are names, and any other text its own description; a date
 * falls where it declares (`isoDate(d, { after, days })`), integers are small counts and flags
 * false (a flag set is a statement the description must make: blocked, cancelled...).
 */
import {
  type Fields,
  type Holds,
  type RecordDescription,
  dateOf,
  groupFields,
  holdsOf,
  isLeaf,
  isLink,
  isList,
  leavesOf,
} from '../records/define.ts';
import type { TSchema } from '@sinclair/typebox';
import { Random } from './random.ts';

export type Rec = Record<string, any>;

/** A record of the given shape with every key present and every value unrecorded (lists empty). */
export function blank(fields: Fields): Rec {
  const out: Rec = {};
  for (const [key, field] of Object.entries(fields)) {
    if (isLeaf(field) || isLink(field)) out[key] = null;
    else if (isList(field)) out[key] = [];
    else out[key] = blank(groupFields(field));
  }
  return out;
}

/** How the values of each kind are invented: the generator's pools of names and places. */
export interface ValueMakers {
  forenames(r: Random, male: boolean, bornIn: number): string;
  surname(r: Random): string;
  place(r: Random): string;
  address(r: Random): string;
  occupation(r: Random, workingYear: number, male: boolean): string;
}

/** What a text leaf holds: what it declares, else a party's name when the search reads it as one. */
export function holdsAt(description: RecordDescription, path: string, leaf: TSchema): Holds | undefined {
  const declared = holdsOf(leaf);
  if (declared) return declared;
  for (const party of description.search.parties) {
    if (party.surname === path) return 'surname';
    if (party.forenames === path) return 'forenames';
  }
  return undefined;
}

const DAY_MS = 86_400_000;
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const DEFAULT_YEARS = [1950, 2020] as const;
const DEFAULT_DAYS = [0, 42] as const;

const readAt = (record: Rec, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Rec)[key] : undefined), record);

function setAt(record: Rec, path: string, value: unknown): void {
  const keys = path.split('.');
  let holder = record;
  for (const key of keys.slice(0, -1)) {
    if (holder[key] === null || typeof holder[key] !== 'object') holder[key] = {};
    holder = holder[key];
  }
  holder[keys[keys.length - 1]] = value;
}

function textValue(
  r: Random,
  holds: Holds | undefined,
  leaf: TSchema,
  makers: ValueMakers,
  person: { male: boolean; bornIn: number },
): string {
  switch (holds) {
    case 'forenames':
      return makers.forenames(r, person.male, person.bornIn);
    case 'surname':
      return makers.surname(r);
    case 'name':
      return `${makers.forenames(r, person.male, person.bornIn)} ${makers.surname(r)}`;
    case 'signature':
      return `${makers.forenames(r, person.male, person.bornIn)[0]}. ${makers.surname(r)}`;
    case 'place':
      return makers.place(r);
    case 'address':
      return makers.address(r);
    case 'occupation':
      return makers.occupation(r, person.bornIn + 30, person.male);
    case 'sex':
      return person.male ? 'Male' : 'Female';
    default:
      return String((leaf as { description?: string }).description ?? 'Recorded');
  }
}

export interface FillOptions {
  /** Only these leaves (dot paths); by default every leaf that is absent or null. */
  readonly paths?: readonly string[];
  /** Give each empty list one item. */
  readonly lists?: boolean;
}

/**
 * Fills leaves of `record` from the description, in place: by default each one absent or null.
 * Dates that follow another are filled after it, and left null when it is.
 */
export function fillFromDescription(
  description: RecordDescription,
  record: Rec,
  r: Random,
  makers: ValueMakers,
  options: FillOptions = {},
): Rec {
  const wanted = options.paths ? new Set(options.paths) : undefined;
  const leaves = leavesOf(description.fields).filter(({ path }) =>
    wanted ? wanted.has(path) : readAt(record, path) == null,
  );
  const person = { male: r.chance(0.5), bornIn: r.int(1930, 2000) };
  // Each leaf draws from a stream of its own, named by its path and one draw of `r`, so a field
  // added to the description changes no other field's values.
  const base = r.next();
  const streamOf = (path: string) => Random.fromString(`${base}\u0000${path}`);
  // Dates that follow none first, then each in turn once the date it follows is set.
  const pending = [...leaves];
  for (let pass = 0; pending.length && pass <= leaves.length; pass++) {
    for (let i = 0; i < pending.length; i++) {
      const { path, leaf } = pending[i];
      const when = dateOf(leaf);
      if (when?.after && pending.some((p) => p.path === when.after)) continue;
      pending.splice(i--, 1);
      setAt(record, path, leafValue(description, path, leaf, record, streamOf(path), makers, person));
    }
  }
  if (options.lists) fillLists(description.fields, record, r, makers, person, description);
  return record;
}

function leafValue(
  description: RecordDescription,
  path: string,
  leaf: TSchema,
  record: Rec,
  r: Random,
  makers: ValueMakers,
  person: { male: boolean; bornIn: number },
): unknown {
  const type = (leaf as { type?: unknown }).type;
  if (type === 'boolean') return false;
  if (type === 'integer') return r.int(1, 500);
  if ((leaf as { format?: unknown }).format === 'date') {
    const when = dateOf(leaf);
    if (when?.after) {
      const anchor = readAt(record, when.after);
      if (typeof anchor !== 'string') return null;
      const [min, max] = when.days ?? DEFAULT_DAYS;
      return isoDay(dayOf(anchor) + r.int(min, max));
    }
    const [first, last] = when?.years ?? DEFAULT_YEARS;
    return isoDay(r.int(dayOf(`${first}-01-01`), dayOf(`${last}-12-31`)));
  }
  return textValue(r, holdsAt(description, path, leaf), leaf, makers, person);
}

function fillLists(
  fields: Fields,
  record: Rec,
  r: Random,
  makers: ValueMakers,
  person: { male: boolean; bornIn: number },
  description: RecordDescription,
): void {
  for (const [key, field] of Object.entries(fields)) {
    if (isLeaf(field) || isLink(field)) continue;
    if (isList(field)) {
      if (Array.isArray(record[key]) && record[key].length > 0) continue;
      const item: Rec = {};
      for (const [itemKey, itemLeaf] of Object.entries(field.item)) {
        item[itemKey] = textValue(r, holdsOf(itemLeaf as TSchema), itemLeaf as TSchema, makers, person);
      }
      record[key] = [item];
    } else {
      if (record[key] === null || typeof record[key] !== 'object') record[key] = {};
      fillLists(groupFields(field), record[key], r, makers, person, description);
    }
  }
}

/** Dot paths of the description's leaves absent from `record` (a builder written before they were described). */
export const absentLeaves = (description: RecordDescription, record: Rec): string[] =>
  leavesOf(description.fields)
    .map(({ path }) => path)
    .filter((path) => {
      const keys = path.split('.');
      const holder = readAt(record, keys.slice(0, -1).join('.')) ?? (keys.length === 1 ? record : undefined);
      return holder === null || typeof holder !== 'object' || !(keys[keys.length - 1] in (holder as Rec));
    });
