/**
 * Checks a record description once, when it is compiled at start-up: every dot path it declares
 * (blocked flag, the parties' names and dates, verification, links) must name a real field of the
 * kind its use needs. A typo such as `status.blockd` would otherwise compile and render every
 * record as blocked; `deceased.surnam` would make every record unfindable.
 */
import { DescriptionError } from '../errors.ts';
import {
  type Field,
  type Fields,
  type RecordDescription,
  dateOf,
  groupFields,
  isLeaf,
  isLink,
  isList,
  leavesOf,
} from './define.ts';

/** What a path must name for its use. `text` holds a name or place; `flag` a boolean. */
export type FieldKind = 'text' | 'date' | 'integer' | 'flag' | 'link';

export { DescriptionError };

/** The field a dot path names, or undefined; lists and links end a path. */
export function fieldAt(fields: Fields, path: string): Field | undefined {
  let current: Fields = fields;
  const segments = path.split('.');
  for (const [i, segment] of segments.entries()) {
    const field: Field | undefined = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (field === undefined) return undefined;
    if (i === segments.length - 1) return field;
    if (isLeaf(field) || isLink(field) || isList(field)) return undefined;
    current = groupFields(field as Fields);
  }
  return undefined;
}

const KINDS: Record<FieldKind, (field: Field) => boolean> = {
  text: (f) =>
    isLeaf(f) && (f as { type?: unknown }).type === 'string' && (f as { format?: unknown }).format === undefined,
  date: (f) =>
    isLeaf(f) && (f as { type?: unknown }).type === 'string' && (f as { format?: unknown }).format === 'date',
  integer: (f) => isLeaf(f) && (f as { type?: unknown }).type === 'integer',
  flag: (f) => isLeaf(f) && (f as { type?: unknown }).type === 'boolean',
  link: (f) => isLink(f),
};

const KIND_WORDS: Record<FieldKind, string> = {
  text: 'a text field',
  date: 'a date field',
  integer: 'a whole-number field',
  flag: 'a flag (true or false)',
  link: 'a link to another registration',
};

export const isKind = (field: Field, kind: FieldKind): boolean => KINDS[kind](field);

/** Throws a DescriptionError unless `path` names a field of `kind` in the description. */
export function requireField(description: RecordDescription, key: string, path: string, kind: FieldKind): void {
  const field = fieldAt(description.fields, path);
  if (field === undefined) throw new DescriptionError(description.name, key, `'${path}' is not a field of the record`);
  if (!isKind(field, kind)) throw new DescriptionError(description.name, key, `'${path}' is not ${KIND_WORDS[kind]}`);
}

const NAME = /^[a-z][a-z0-9]*$/;

const checked = new WeakSet<RecordDescription>();

/** Throws a DescriptionError at the first path of the description that is not what its use needs. */
export function checkDescription(description: RecordDescription): void {
  if (checked.has(description)) return;
  const { name, search } = description;
  if (!NAME.test(name))
    throw new DescriptionError(
      String(name),
      'name',
      `'${name}' must be lower-case letters and digits (it is a URL segment and a table prefix)`,
    );
  requireField(description, 'blockedFlag', description.blockedFlag, 'flag');
  requireField(description, 'id', 'id', 'integer');
  if (!search.parties.length)
    throw new DescriptionError(name, 'search.parties', 'a record must be findable through at least one party');
  for (const { path, leaf } of leavesOf(description.fields)) {
    const after = dateOf(leaf)?.after;
    if (after !== undefined) requireField(description, `fields.${path} (after)`, after, 'date');
  }
  for (const [i, party] of search.parties.entries()) {
    const key = `search.parties[${i}]`;
    requireField(description, `${key}.surname`, party.surname, 'text');
    requireField(description, `${key}.forenames`, party.forenames, 'text');
    if (!party.dates.length) throw new DescriptionError(name, `${key}.dates`, 'a party is found by at least one date');
    for (const date of party.dates) requireField(description, `${key}.dates`, date, 'date');
  }
  checked.add(description);
}
