/**
 * The shape of a tuned builder's records, taken from the description: a builder writes what it
 * tunes (people, dates, places, statuses) and the description gives every other key, in its own
 * order, so a record serialises the same whichever way it was assembled. A group with nothing
 * recorded is the description's blank of it; a leaf the builder never records (a hint of its
 * kind) is null; a link is null until the stream pairs the record; a leaf described after the
 * builder was written is left for fillFromDescription (values.ts) to invent.
 */
import { type Field, type Fields, type GroupField, groupFields, isLeaf, isLink, isList } from '../records/define.ts';
import { type Rec, blank } from './values.ts';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** A group with nothing recorded, from its field tree. Shared and frozen: records are only ever serialised. */
export const nullGroup = (field: GroupField | Fields): Rec => deepFreeze(blank(groupFields(field)));

/**
 * What a key the builder does not write holds before anything is filled: a list or group fresh each record,
 * as filling writes into it.
 */
function freshOf(field: Field): (() => unknown) | undefined {
  if (isLeaf(field) || isLink(field)) return undefined;
  if (isList(field)) return () => [];
  const fields = groupFields(field as GroupField | Fields);
  return () => blank(fields);
}

type Complete = (holder: Rec) => Rec;
type Fresh = readonly (readonly [key: string, make: () => unknown])[];

/** Adds the missing keys, which all come last, to the holder itself (to a copy of a shared, frozen one). */
const append =
  (missing: readonly string[], fresh: Fresh): Complete =>
  (holder) => {
    const out = Object.isFrozen(holder) ? { ...holder } : holder;
    for (let i = 0; i < missing.length; i++) if (!(missing[i] in out)) out[missing[i]] = null;
    for (let i = 0; i < fresh.length; i++) if (out[fresh[i][0]] === null) out[fresh[i][0]] = fresh[i][1]();
    return out;
  };

/**
 * Rebuilds the group in the description's order, the keys the builder does not write null or
 * fresh (what it does not write, it does not record: a re-registration's copy too): a copy of a
 * template holding every key in that order, each written key then set in its place.
 */
function rebuild(keys: readonly string[], missing: readonly string[], fresh: Fresh): Complete {
  const template: Rec = Object.fromEntries(keys.map((key) => [key, null]));
  const written = keys.filter((key) => !missing.includes(key));
  return (holder) => {
    const out = { ...template };
    for (let i = 0; i < written.length; i++) out[written[i]] = holder[written[i]];
    for (let i = 0; i < fresh.length; i++) out[fresh[i][0]] = fresh[i][1]();
    return out;
  };
}

/**
 * Completes a group shaped as `sample` is to the description's `fields`: the keys missing from
 * the sample are added, appended when they all come after the written ones (the holder is kept),
 * else with the group rebuilt in the description's order. Undefined when nothing is missing.
 */
function completeGroup(fields: Fields, sample: Rec): Complete | undefined {
  const keys = Object.keys(fields);
  const missing = keys.filter((key) => !(key in sample));
  const inner: [string, Complete][] = [];
  for (const key of keys) {
    const field = fields[key];
    const value = sample[key];
    if (
      missing.includes(key) ||
      isLeaf(field) ||
      isLink(field) ||
      isList(field) ||
      value === null ||
      typeof value !== 'object'
    )
      continue;
    const complete = completeGroup(groupFields(field as GroupField | Fields), value);
    if (complete) inner.push([key, complete]);
  }
  if (!missing.length && !inner.length) return undefined;
  const fresh = missing.flatMap((key) => {
    const make = freshOf(fields[key]);
    return make ? [[key, make] as const] : [];
  });
  const appended = keys.slice(keys.length - missing.length).every((key) => missing.includes(key));
  const fill = !missing.length ? undefined : appended ? append(missing, fresh) : rebuild(keys, missing, fresh);
  if (!inner.length) return fill;
  const innerKeys = inner.map(([key]) => key);
  const innerCompletes = inner.map(([, complete]) => complete);
  // Indexed loops: this runs for every group of every record.
  return (holder) => {
    const out = fill ? fill(holder) : Object.isFrozen(holder) ? { ...holder } : holder;
    for (let i = 0; i < innerKeys.length; i++) {
      const value = out[innerKeys[i]];
      if (value !== null && typeof value === 'object') out[innerKeys[i]] = innerCompletes[i](value);
    }
    return out;
  };
}

/**
 * How records shaped as `sample` (one of a builder's records) are given every key of `fields`: the identity
 * when it writes them all.
 */
export const shapeOf = (fields: Fields, sample: Rec): Complete => completeGroup(fields, sample) ?? ((record) => record);
