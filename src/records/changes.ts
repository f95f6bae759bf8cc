/**
 * What the change feed says of a registration, derived from its description: the event types
 * (`<type>.registered`, `<type>.updated`) and, for an update, the reason, from the paths the
 * description declares (`changes`, the blocked flag, verification's cancelled flag and
 * replaced-by link), never written per type.
 *
 * The rule is data (an ordered list of tests on paths, the first that holds naming the reason),
 * read here for the memory store and turned into SQL for PostgreSQL (`reasonSql`), so both stores
 * name the same reason for the same change (test/store/event-store.test.ts runs both). Paths are
 * checked when the rules are made, at start-up: one that names no field fails then.
 */
import { isDeepStrictEqual } from 'node:util';
import { type FieldKind, fieldAt, requireField } from './check.ts';
import { type RecordDescription, isLink, readPath } from './define.ts';
import { UPDATE_REASONS, type UpdateReason } from '../model/events.ts';

export { fieldAt };

export { UPDATE_REASONS, type UpdateReason };

export const registeredType = (type: string) => `${type}.registered`;
export const updatedType = (type: string) => `${type}.updated`;
/** Every event type of these record types, in their order. */
export const eventTypes = (descriptions: readonly RecordDescription[]) =>
  descriptions.flatMap((d) => [registeredType(d.name), updatedType(d.name)]);
/** The record type an event type is of (`death.updated` is of `death`). */
export const recordTypeOf = (eventType: string) => eventType.slice(0, eventType.lastIndexOf('.'));

/**
 * How a path's value moved from the stored record to the new one:
 * `became-true` from anything else to true; `appeared` from nothing (absent or null) to something;
 * `became-blocked` from a literal false to anything else (what `blockedBy` reads as blocked);
 * `became-unblocked` the other way; `changed` any difference (absent and null alike).
 */
type ChangeTest = 'became-true' | 'appeared' | 'became-blocked' | 'became-unblocked' | 'changed';

interface ReasonRule {
  readonly reason: Exclude<UpdateReason, 'other'>;
  readonly path: string;
  readonly test: ChangeTest;
}

/** What each test reads, and the description's key that declares its path (for the error naming a bad one). */
const NEEDS: Record<ChangeTest, FieldKind> = {
  'became-true': 'flag',
  appeared: 'link',
  'became-blocked': 'flag',
  'became-unblocked': 'flag',
  changed: 'text',
};
const KEY_OF: Record<ReasonRule['reason'], string> = {
  cancelled: 'verification.cancelledFlag',
  replaced: 'verification.replacedBy',
  blocked: 'blockedFlag',
  unblocked: 'blockedFlag',
  corrected: 'changes.correction',
  'marginal-note': 'changes.marginalNote',
};

/**
 * A description's reason rules, in the order they are tried; a DescriptionError names a path that is no field
 * of the kind its test reads.
 */
export function reasonRules(description: RecordDescription): ReasonRule[] {
  const { verification, changes, blockedFlag } = description;
  const rules: ReasonRule[] = [];
  if (verification.cancelledFlag)
    rules.push({ reason: 'cancelled', path: verification.cancelledFlag, test: 'became-true' });
  rules.push({ reason: 'replaced', path: verification.replacedBy, test: 'appeared' });
  rules.push({ reason: 'blocked', path: blockedFlag, test: 'became-blocked' });
  rules.push({ reason: 'unblocked', path: blockedFlag, test: 'became-unblocked' });
  if (changes.correction) rules.push({ reason: 'corrected', path: changes.correction, test: 'changed' });
  if (changes.marginalNote) rules.push({ reason: 'marginal-note', path: changes.marginalNote, test: 'changed' });
  for (const rule of rules) requireField(description, KEY_OF[rule.reason], rule.path, NEEDS[rule.test]);
  return rules;
}

const nothing = (value: unknown) => value === undefined || value === null;

const holds: Record<ChangeTest, (before: unknown, after: unknown) => boolean> = {
  'became-true': (before, after) => before !== true && after === true,
  appeared: (before, after) => nothing(before) && !nothing(after),
  'became-blocked': (before, after) => before === false && after !== false,
  'became-unblocked': (before, after) => before !== false && after === false,
  changed: (before, after) => !isDeepStrictEqual(before ?? null, after ?? null),
};

/** Why `after` differs from `before` (both stored records of the description's type). */
export function compileReason(description: RecordDescription): (before: unknown, after: unknown) => UpdateReason {
  const rules = reasonRules(description);
  return (before, after) =>
    rules.find((rule) => holds[rule.test](readPath(before, rule.path), readPath(after, rule.path)))?.reason ?? 'other';
}

/** A dot path as a PostgreSQL text-array literal for `#>`; paths hold only identifier characters. */
const pathLiteral = (path: string) => {
  if (!/^[A-Za-z0-9_.]+$/.test(path)) throw new Error(`the path '${path}' cannot be written in SQL`);
  return `'{${path.split('.').join(',')}}'`;
};

/**
 * The same rules as one SQL CASE over two jsonb expressions, the stored record and the new one.
 * `#>` gives SQL NULL for a missing path; coalesced to JSON null, so absent and null compare alike.
 */
export function reasonSql(description: RecordDescription, before: string, after: string): string {
  const value = (record: string, path: string) => `coalesce((${record}) #> ${pathLiteral(path)}, 'null'::jsonb)`;
  const sql: Record<ChangeTest, (b: string, a: string) => string> = {
    'became-true': (b, a) => `${b} <> 'true'::jsonb AND ${a} = 'true'::jsonb`,
    appeared: (b, a) => `${b} = 'null'::jsonb AND ${a} <> 'null'::jsonb`,
    'became-blocked': (b, a) => `${b} = 'false'::jsonb AND ${a} <> 'false'::jsonb`,
    'became-unblocked': (b, a) => `${b} <> 'false'::jsonb AND ${a} = 'false'::jsonb`,
    changed: (b, a) => `${b} <> ${a}`,
  };
  const cases = reasonRules(description).map(
    (rule) => `WHEN ${sql[rule.test](value(before, rule.path), value(after, rule.path))} THEN '${rule.reason}'`,
  );
  return `CASE ${cases.join(' ')} ELSE 'other' END`;
}

/**
 * What is wrong with a subscription's event types and fields, if anything: every type must be an
 * event type of these descriptions, and every field a dot path naming a field (a leaf, a group or
 * a list; not a link to another registration) of at least one subscribed type's record.
 */
export function subscriptionProblem(
  descriptions: readonly RecordDescription[],
  events: readonly string[],
  fields: readonly string[],
): string | undefined {
  const known = eventTypes(descriptions);
  if (events.length === 0) return 'name at least one event type';
  const unknown = events.filter((type) => !known.includes(type));
  if (unknown.length) return `unknown event type(s) ${unknown.join(', ')}; the event types are ${known.join(', ')}`;
  const subscribed = descriptions.filter((d) => events.some((type) => recordTypeOf(type) === d.name));
  for (const path of fields) {
    const named = subscribed
      .map((d) => fieldAt(d.fields, path))
      .filter((field) => field !== undefined && !isLink(field));
    if (named.length === 0) {
      return (
        `the field '${path}' is no field of a ${subscribed.map((d) => d.name).join(' or ')} record (fields ` +
        `are dot paths of the record, e.g. deceased.dateOfDeath)`
      );
    }
  }
  return undefined;
}
