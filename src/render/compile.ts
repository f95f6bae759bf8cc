/**
 * Compiles a field tree, once at start-up, into the three things every record
 * view needs: a renderer that applies the visibility rules, the JSON Schema of
 * what that renderer can produce (for the OpenAPI document), and the schema a
 * stored record must satisfy before it is loaded.
 *
 * The renderer walks the description, not the stored record, so only described
 * fields can ever leave the server: the response is an allow-list.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import {
  type Field,
  type Fields,
  HIDDEN,
  groupDescription,
  groupFields,
  isBlocked,
  isLeaf,
  isLink,
  isList,
  type Visibility,
  visibilityOf,
} from '../records/define.ts';
import './formats.ts';

/** Who is looking: decides which fields are shown. */
export interface Audience {
  readonly fullDetails: boolean;
}

interface RenderContext {
  readonly blocked: boolean;
  readonly fullDetails: boolean;
}
type Renderer = (value: unknown, ctx: RenderContext) => unknown;
type JsonSchema = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const HIDDEN_NOTE = 'Null when the caller may not see it; absent when nothing was recorded.';
/** Who may see a field, as the document says it beside the field's own description. */
const VISIBILITY_NOTE: Readonly<Record<Visibility, string>> = {
  always: 'Shown to every caller, even on a blocked record',
  basic: 'Shown to every authorised caller',
  full: "Needs the 'full-details' role",
};
/** What the document says of a link, as the renderer above treats it. */
const LINK_NOTE =
  'Redacted by its own blocked flag. Left out when there is none, and always left out of a blocked record, ' +
  'whose links are hidden with the rest of it (the registrations beyond are found by their own lookups)';

export interface CompiledTree {
  /** Renders a stored record (already in the view's shape) for an audience. */
  render(stored: unknown, audience: Audience): Record<string, unknown>;
  /** JSON Schema of the rendered record; links refer to `selfRef`. */
  responseSchema: JsonSchema;
}

export function compileTree(fields: Fields, blockedFlag: string, selfRef: string): CompiledTree {
  const blockedPath = blockedFlag.split('.');
  let renderSelf: (stored: unknown, fullDetails: boolean) => Record<string, unknown>;

  const compileField = (field: Field): Renderer => {
    if (isLeaf(field)) {
      switch (visibilityOf(field)) {
        case 'always':
          return (v) => v ?? undefined;
        // A blocked record hides what it holds, and renders a key it was stored without (a field
        // described after it was stored) as an unblocked record does for the same caller: left out
        // where the caller may see the field, null where the caller's roles hide it.
        case 'basic':
          return (v, ctx) => (v === undefined ? undefined : ctx.blocked || v === HIDDEN ? null : (v ?? undefined));
        case 'full':
          return (v, ctx) =>
            !ctx.fullDetails || v === HIDDEN
              ? null
              : v === undefined
                ? undefined
                : ctx.blocked
                  ? null
                  : (v ?? undefined);
      }
    }
    if (isList(field)) {
      const renderItem = compileItem(field.item);
      const hidden = (ctx: RenderContext) =>
        field.visibility !== 'always' && (ctx.blocked || (field.visibility === 'full' && !ctx.fullDetails));
      return (v, ctx) => (hidden(ctx) || !Array.isArray(v) ? [] : v.map(renderItem));
    }
    if (isLink(field)) {
      // A blocked record's links are its own data, hidden with the rest of it wherever it is shown,
      // so a chain stops there. Left out rather than null: a hidden link must read as no link, or
      // the answer would still tell that the blocked registration was replaced (LINK_NOTE).
      return (v, ctx) => (ctx.blocked || v == null ? undefined : renderSelf(v, ctx.fullDetails));
    }
    return compileGroup(groupFields(field));
  };

  const compileGroup = (group: Fields): Renderer => {
    const entries = Object.entries(group).map(([key, field]) => [key, compileField(field)] as const);
    return (v, ctx) => {
      const src = isObject(v) ? v : undefined;
      const out: Record<string, unknown> = {};
      for (const [key, render] of entries) {
        const value = render(src?.[key], ctx);
        if (value !== undefined) out[key] = value;
      }
      return out;
    };
  };

  // List items are shown or hidden as a whole with their list; unrecorded values are left out.
  const compileItem = (item: Fields) => {
    const keys = Object.keys(item);
    return (v: unknown) => {
      const out: Record<string, unknown> = {};
      if (isObject(v)) for (const key of keys) if (v[key] != null) out[key] = v[key];
      return out;
    };
  };

  const renderRoot = compileGroup(fields);
  renderSelf = (stored, fullDetails) => {
    const blocked = isBlocked(stored, blockedFlag);
    const out = renderRoot(stored, { blocked, fullDetails }) as Record<string, unknown>;
    // The flag is stated as the service treats it: anything but a recorded `false` is blocked.
    let holder = out;
    for (const key of blockedPath.slice(0, -1)) holder = holder[key] as Record<string, unknown>;
    holder[blockedPath[blockedPath.length - 1]] = blocked;
    return out;
  };

  return {
    render: (stored, audience) => renderSelf(stored, audience.fullDetails),
    responseSchema: responseGroup(fields, selfRef),
  };
}

/**
 * What a stored record must look like: every described field may be null or
 * missing, nothing undescribed may be present, and the id is an integer.
 * Returns a function giving the reason a record is invalid, or undefined.
 */
export function compileStoredValidator(fields: Fields, name: string): (stored: unknown) => string | undefined {
  const checker = TypeCompiler.Compile(Type.Recursive((self) => storedGroup(fields, self, true), { $id: name }));
  return (stored) => {
    if (checker.Check(stored)) return undefined;
    const first = checker.Errors(stored).First();
    const error = first && innermost(first);
    return error ? `${error.path || '/'}: ${error.message}` : 'invalid record';
  };
}

/**
 * Every stored field is "the value or null", so TypeBox's first error is just
 * "Expected union value" at the enclosing group; the error of the non-null
 * variant says which field is wrong and why.
 */
function innermost(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union) return error;
  for (const variant of error.errors) {
    const inner = variant.First();
    if (inner && inner.type !== ValueErrorType.Null) return innermost(inner);
  }
  return error;
}

const nullable = (schema: TSchema) => Type.Optional(Type.Union([schema, Type.Null()]));

function storedGroup(fields: Fields, self: TSchema, root: boolean): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const [key, field] of Object.entries(fields)) {
    if (root && key === 'id') properties[key] = Type.Integer({ minimum: 0 });
    else if (isLeaf(field)) properties[key] = nullable(field);
    else if (isList(field))
      properties[key] = nullable(Type.Array(storedGroup(field.item, self, false), { maxItems: 100 }));
    else if (isLink(field)) properties[key] = nullable(self);
    else properties[key] = nullable(storedGroup(groupFields(field), self, false));
  }
  return Type.Object(properties, { additionalProperties: false });
}

function leafSchema(field: TSchema, nullableValue: boolean, note?: string): JsonSchema {
  const { type, format, description } = field as JsonSchema;
  const schema: JsonSchema = { type: nullableValue ? [type, 'null'] : type };
  if (format) schema.format = format;
  const text = [description, note].filter(Boolean).join('. ');
  if (text) schema.description = text;
  return schema;
}

function responseGroup(fields: Fields, selfRef: string, description?: string): JsonSchema {
  const properties: JsonSchema = {};
  const required: string[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (isLeaf(field)) {
      const always = visibilityOf(field) === 'always';
      properties[key] = leafSchema(
        field,
        !always,
        [VISIBILITY_NOTE[visibilityOf(field)], always ? undefined : HIDDEN_NOTE].filter(Boolean).join('. '),
      );
      if (always) required.push(key);
    } else if (isList(field)) {
      const items: JsonSchema = {};
      for (const [itemKey, itemField] of Object.entries(field.item))
        items[itemKey] = leafSchema(itemField as TSchema, false);
      properties[key] = {
        type: 'array',
        description:
          `${field.description}. ${VISIBILITY_NOTE[field.visibility]}. Empty when the caller may not ` +
          `see it or nothing was recorded.`,
        items: { type: 'object', properties: items, additionalProperties: false },
      };
      required.push(key);
    } else if (isLink(field)) {
      properties[key] = { description: `${field.description}. ${LINK_NOTE}.`, $ref: selfRef };
    } else {
      properties[key] = responseGroup(groupFields(field), selfRef, groupDescription(field));
      required.push(key);
    }
  }
  const schema: JsonSchema = { type: 'object', properties, required, additionalProperties: false };
  if (description) schema.description = description;
  return schema;
}
