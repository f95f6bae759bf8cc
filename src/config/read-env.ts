/**
 * Reading a schema's settings from the environment, and listing them for the docs and `--help`.
 */
import type { Static, TObject, TProperties } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** The values a group of settings gives once read: each module names the settings it reads. */
export type EnvValues<P extends TProperties> = Static<TObject<P>>;

/** The settings a schema knows, converted, defaulted and checked: a problem for each bad one. */
export function readEnv<S extends TObject>(schema: S, env: Record<string, string | undefined>) {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) if (env[key] !== undefined && env[key] !== '') raw[key] = env[key];
  const value = Value.Default(schema, Value.Convert(schema, { ...raw })) as Static<S>;
  const problems = [...Value.Errors(schema, value)].map((error) => {
    const key = error.path.slice(1);
    const property = (schema.properties as Record<string, { description?: string }>)[key];
    return (
      `${key}=${JSON.stringify(raw[key])}: ` +
      `${error.message}${property?.description ? ` (${property.description})` : ''}`
    );
  });
  return { value, problems, given: (key: string) => raw[key] !== undefined };
}

/** Each setting of a schema with its default and meaning, in the schema's order. */
export const referenceOf = (schema: TObject) =>
  Object.entries(schema.properties).map(([name, property]) => ({
    name,
    default: (property as { default?: unknown }).default,
    description: (property as { description?: string }).description ?? '',
  }));
