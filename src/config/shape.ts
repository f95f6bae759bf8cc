/**
 * How the configuration's types are derived from its TypeBox schemas: what a module is given is
 * read-only all the way down, and the values no JSON schema describes (file contents, keys) are
 * named by their Node types.
 */
import type { KeyObject } from 'node:crypto';
import { type Static, type TSchema, Type } from '@sinclair/typebox';

type Opaque = Buffer | KeyObject;

type DeepReadonly<T> = T extends Opaque
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/** The type a configuration schema describes, read-only. */
export type Settled<S extends TSchema> = DeepReadonly<Static<S>>;

/** A value the configuration holds as Node gives it (a file's bytes, a key): typed, not checked. */
export const opaque = <T extends Opaque>() => Type.Unsafe<T>({});
