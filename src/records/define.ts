/**
 * The vocabulary in which each record type is described once. Routes, query
 * validation, the stored-record validator, redaction, the OpenAPI document and
 * the SQL search keys are all derived from these descriptions.
 *
 * A description is a tree: plain objects are groups, TypeBox schemas are leaves.
 * A leaf is restricted to callers with the `full-details` role unless it is
 * wrapped in `basic()` (any authorised caller) or `always()` (shown even on a
 * blocked record), so a new field can never leak by omission.
 */
import { Kind, Type, type TSchema } from '@sinclair/typebox';

export type Visibility = 'always' | 'basic' | 'full';
const VISIBILITY = Symbol('visibility');

type Marked = TSchema & { [VISIBILITY]?: Visibility };

interface ListField {
  readonly kind: 'list';
  readonly visibility: Visibility;
  readonly item: Fields;
  readonly description: string;
}
interface LinkField {
  readonly kind: 'link';
  readonly description: string;
}
export interface GroupField {
  readonly kind: 'group';
  readonly description: string;
  readonly fields: Fields;
}
export type Field = TSchema | ListField | LinkField | GroupField | Fields;
export interface Fields {
  readonly [name: string]: Field;
}

const mark = <T extends TSchema>(visibility: Visibility, schema: T): T => ({ ...schema, [VISIBILITY]: visibility });

/** Shown to any authorised caller. */
export const basic = <T extends TSchema>(schema: T): T => mark('basic', schema);
/** Shown even when the record is blocked: only the id and the blocked flag. */
export const always = <T extends TSchema>(schema: T): T => mark('always', schema);
/** Shown only with the full-details role. The default; used where saying so helps the reader. */
export const full = <T extends TSchema>(schema: T): T => mark('full', schema);

/**
 * A value a projection (v0) may put in a leaf to say "hidden from every
 * caller": rendered as null, like any field the caller may not see.
 */
export const HIDDEN = Symbol('hidden');

export const visibilityOf = (schema: TSchema): Visibility => (schema as Marked)[VISIBILITY] ?? 'full';

/**
 * What a text leaf holds, where the mock and the generator need to know to invent a value for it
 * (`src/generate/values.ts`). A party's names (`search.parties`) are known as names without saying
 * so; a text leaf that declares nothing is given its own description as its value.
 */
export type Holds =
  | 'forenames'
  | 'surname'
  /** A person's full name as one string. */
  | 'name'
  /** A signature as the register shows it (initial and surname). */
  | 'signature'
  /** A town or other place. */
  | 'place'
  | 'address'
  | 'occupation'
  | 'sex';

/**
 * When a date leaf falls, for the mock and the generator: `days` after the date at `after` (a
 * dot path of another date leaf of the record), or within `years` when it follows no other.
 */
interface DateOf {
  readonly after?: string;
  readonly days?: readonly [min: number, max: number];
  readonly years?: readonly [first: number, last: number];
}

const HOLDS = Symbol('holds');
const DATE_OF = Symbol('dateOf');

/** Leaf types. The description is what the OpenAPI document says about the field. */
export const text = (description: string, holds?: Holds) => {
  const schema = Type.String({ description, maxLength: 1000 });
  return holds ? Object.assign(schema, { [HOLDS]: holds }) : schema;
};
export const isoDate = (description: string, when?: DateOf) => {
  const schema = Type.String({ description, format: 'date', examples: ['2008-08-08'] });
  return when ? Object.assign(schema, { [DATE_OF]: when }) : schema;
};
/** What a text leaf declares it holds, if anything. */
export const holdsOf = (schema: TSchema): Holds | undefined => (schema as { [HOLDS]?: Holds })[HOLDS];
/** When a date leaf declares it falls, if anything. */
export const dateOf = (schema: TSchema): DateOf | undefined => (schema as { [DATE_OF]?: DateOf })[DATE_OF];
export const integer = (description: string) => Type.Integer({ description });
export const flag = (description: string) => Type.Boolean({ description });

export const group = (description: string, fields: Fields): GroupField => ({ kind: 'group', description, fields });

/**
 * A list that is shown or hidden as a whole (aliases). Its items are plain
 * objects of leaves; hidden, missing and empty lists are all sent as `[]`, as
 * the existing service does, so clients can always iterate.
 */
export const list = (visibility: Visibility, description: string, item: Fields): ListField => ({
  kind: 'list',
  visibility,
  description,
  item,
});

/** An embedded registration of the same type (re-registration chains), redacted by its own blocked flag. */
export const link = (description: string): LinkField => ({ kind: 'link', description });

export const isLeaf = (field: Field): field is TSchema => Kind in (field as object);
export const isList = (field: Field): field is ListField => (field as ListField).kind === 'list' && !isLeaf(field);
export const isLink = (field: Field): field is LinkField => (field as LinkField).kind === 'link' && !isLeaf(field);
const isGroup = (field: Field): field is GroupField => (field as GroupField).kind === 'group' && !isLeaf(field);

/** The fields of a group, whether written as `group(...)` or as a plain object. */
export const groupFields = (field: GroupField | Fields): Fields =>
  isGroup(field as Field) ? (field as GroupField).fields : (field as Fields);
export const groupDescription = (field: GroupField | Fields): string | undefined =>
  isGroup(field as Field) ? (field as GroupField).description : undefined;

/** The leaves of a field tree with their dot paths, depth first (not those inside lists or links). */
export function leavesOf(fields: Fields, prefix = ''): { readonly path: string; readonly leaf: TSchema }[] {
  return Object.entries(fields).flatMap(([key, field]) => {
    const path = `${prefix}${key}`;
    if (isLeaf(field)) return [{ path, leaf: field }];
    if (isList(field) || isLink(field)) return [];
    return leavesOf(groupFields(field as GroupField | Fields), `${path}.`);
  });
}

/** A person (or party) whose name and dates make a record findable. Paths are dot paths into the v1 record. */
export interface Party {
  readonly surname: string;
  readonly forenames: string;
  /** A search date matches any of these. */
  readonly dates: readonly string[];
  /**
   * Column names of the existing service's mock rows (`{id, data, ...columns}`),
   * used when loading those rows: a blocked row there has null data but filled columns.
   */
  readonly rowColumns: { readonly surname: string; readonly forenames: string; readonly dates: readonly string[] };
}

/**
 * How a verification parameter is compared with a record, after the searches' normalisation
 * (normaliseName): `name` and `place` equal; `forenames` equal, or the record's leading whole words
 * equal to those given (the search's word-prefix rule); `date` equal as YYYY-MM-DD; `id` the same number.
 * A place differs from a name only in the length it may have.
 */
export type Comparison = 'name' | 'forenames' | 'place' | 'date' | 'id';

/** A detail the caller may add to a verification; given, it must match too. */
export interface VerifiedDetail {
  readonly compare: Comparison;
  /** Dot paths of leaves of the record; the detail matches when any one of them does. */
  readonly paths: readonly string[];
  /** What the caller gives, for the OpenAPI document. */
  readonly description: string;
}

/** The system number as a verified detail: every record has it, printed bottom-left on the certificate. */
export const systemNumberDetail: VerifiedDetail = {
  compare: 'id',
  paths: ['id'],
  description: 'The system number of the registration, printed bottom-left on the certificate',
};

/**
 * What a verification of this type is asked with and compared against. The caller names every
 * party of `search.parties` (each set of names a different party, in any order), gives the date,
 * and may add details. The first party's names and the date are the search that finds the
 * candidates, so `date.path` must be one of the parties' search dates.
 */
export interface Verification {
  readonly date: { readonly param: string; readonly path: string; readonly description: string };
  /** Parameter names of each party's surname and forenames, and whose they are (for the document). */
  readonly names: readonly { readonly surname: string; readonly forenames: string; readonly who: string }[];
  readonly details: Readonly<Record<string, VerifiedDetail>>;
  /** Dot path of a flag that, when true, means the registration was cancelled (types that record it). */
  readonly cancelledFlag?: string;
  /** Dot path of the link to the registration that replaced this one: a replaced registration is not verified. */
  readonly replacedBy: string;
}

export interface RecordDescription {
  /** Dataset name: URL segment, audit dataset, metrics label, table prefix. */
  readonly name: string;
  /** What one registration is called, for headings and the OpenAPI document: "Civil partnership registration". */
  readonly title: string;
  /**
   * What the event is called in a sentence, in lower case: "civil partnership" ("Find a civil partnership
   * registration").
   */
  readonly noun: string;
  /** The noun's plural where adding an s is wrong; "civil partnerships" (wording.ts's pluralOf) otherwise. */
  readonly plural?: string;
  /**
   * Where the type is listed among the others (routes, documents, pages, the client's list), lowest
   * first; a type without one comes after those with one, by name (records/index.ts).
   */
  readonly order?: number;
  readonly fields: Fields;
  /** Dot path of the blocked flag. Anything but a literal `false` there means blocked. */
  readonly blockedFlag: string;
  readonly search: {
    /** Name of the date query parameter of the v1 search. */
    readonly dateParam: string;
    /** What the date parameter is, for the OpenAPI document. */
    readonly dateDescription: string;
    /** Whose names are searched; a record is found through any of them. */
    readonly parties: readonly Party[];
    readonly description: string;
  };
  /** Verification without disclosure: whether given details match one current registration. */
  readonly verification: Verification;
  /**
   * Dot paths whose change names why a registration was updated, for the change feed's `reason`
   * (records/changes.ts). Cancelled, replaced, blocked and unblocked come from the paths declared
   * above (`verification.cancelledFlag`, `verification.replacedBy`, `blockedFlag`).
   */
  readonly changes: {
    /** The text recording a correction, where the type has one. */
    readonly correction?: string;
    /** The marginal note. */
    readonly marginalNote?: string;
  };
}

/** The descriptions defineRecord made: a module's export is one of them, whatever else has their shape. */
const defined = new WeakSet<RecordDescription>();

export const defineRecord = <const D extends RecordDescription>(description: D): D => (
  defined.add(description), description
);

/** Whether `value` is a description defineRecord made (not merely an object of its shape). */
export const isDefinedRecord = (value: unknown): value is RecordDescription =>
  typeof value === 'object' && value !== null && defined.has(value as RecordDescription);

/** Reads a dot path from a stored record; missing or null groups read as undefined. */
export function readPath(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Whether a record whose blocked flag holds `flag` is blocked: unless it says false, in case of doubt. */
export const blockedBy = (flag: unknown): boolean => flag !== false;
export const isBlocked = (record: unknown, blockedFlag: string): boolean => blockedBy(readPath(record, blockedFlag));
