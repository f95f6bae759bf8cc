/**
 * Fastify's own compilers (Ajv for requests, fast-json-stringify for answers), run when a schema is
 * first used instead of while the routes are registered. Compiling every route's schemas was a
 * fifth of the mock's start (docs/performance.md, "The mock's first answer"); a request needs only
 * its own route's. `warm()` compiles the rest once the server listens, a schema a macrotask so the
 * first requests are not held behind them, and a schema that cannot compile still stops the process
 * within a second of starting rather than on the request that first uses it. `warm()` also checks
 * each request schema against JSON Schema's own (the meta-schema), which Ajv would otherwise do as it
 * compiles the first: compiling the meta-schema was half of the mock's first answer.
 *
 * Fastify treats these compilers as custom ones, so it no longer lower-cases the names in a schema of
 * request headers (Node gives every header name in lower case). `headersSchema` does it for the one
 * shape the routes use, named headers each with a schema of its own (feed-position.ts), and refuses
 * any other when the route is registered.
 */
import AjvCompiler from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { Ajv } from 'ajv';
import type { FastifyServerOptions } from 'fastify';

type Compilers = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type RouteSchema = { readonly schema?: unknown; readonly httpPart?: string };
type Validate = ((data: unknown) => unknown) & { errors?: unknown };

export interface LazySchemas {
  readonly compilersFactory: Compilers;
  /**
   * Compiles every schema not yet compiled, one a macrotask, then checks the request schemas against
   * the meta-schema; rejects with the first that fails.
   */
  warm(): Promise<void>;
}

/** A schema of named request headers, with the names as Node gives them. */
function headersSchema(schema: unknown) {
  const { type, properties, required, ...rest } = schema as Record<string, unknown>;
  if (type !== 'object' || Object.keys(rest).length > 0 || (required !== undefined && !Array.isArray(required))) {
    throw new Error('a schema of request headers names each header, and says nothing else');
  }
  const lower = (name: string) => name.toLowerCase();
  return {
    type,
    properties: Object.fromEntries(Object.entries(properties ?? {}).map(([name, value]) => [lower(name), value])),
    ...(required ? { required: (required as string[]).map(lower) } : {}),
  };
}

export function lazySchemas(): LazySchemas {
  const pending = new Set<() => unknown>();
  /** `compile` run once, at the first call of what it returns or at warm-up. */
  const deferred = <F>(compile: () => F): (() => F) => {
    let compiled: F | undefined;
    const get = () => {
      if (compiled === undefined) {
        compiled = compile();
        pending.delete(get);
      }
      return compiled;
    };
    pending.add(get);
    return get;
  };
  /** Every request schema, shared ones included, for `warm` to check against the meta-schema. */
  const unchecked = new Set<unknown>();
  const validators = AjvCompiler();
  const serializers = SerializerSelector();
  const compilersFactory = {
    buildValidator(external: Parameters<typeof validators>[0], options: Parameters<typeof validators>[1]) {
      for (const schema of Object.values(external)) unchecked.add(schema);
      const unvalidated = { ...options, customOptions: { ...options?.customOptions, validateSchema: false } };
      const compilerOf = deferred(() => validators(external, unvalidated as typeof options));
      return (route: RouteSchema) => {
        const compiled = route.httpPart === 'headers' ? { ...route, schema: headersSchema(route.schema) } : route;
        unchecked.add(compiled.schema);
        const validatorOf = deferred(() => compilerOf()(compiled as never) as Validate);
        const validate: Validate = (data) => validatorOf()(data);
        // Fastify reads the errors of a failed validation from the function it was given.
        Object.defineProperty(validate, 'errors', { get: () => validatorOf().errors });
        return validate;
      };
    },
    buildSerializer(external: Parameters<typeof serializers>[0], options: Parameters<typeof serializers>[1]) {
      const compilerOf = deferred(() => serializers(external, options));
      return (route: RouteSchema) => {
        const serializerOf = deferred(() => compilerOf()(route as never));
        return (data: unknown) => serializerOf()(data);
      };
    },
  };
  return {
    // Typed as Ajv's own functions, of which Fastify calls the function and reads `errors` only.
    compilersFactory: compilersFactory as unknown as Compilers,
    async warm() {
      while (pending.size) {
        const [next] = pending;
        next();
        await new Promise((resolve) => setImmediate(resolve));
      }
      const meta = new Ajv({ strict: false });
      for (const schema of unchecked) {
        unchecked.delete(schema);
        if (!meta.validateSchema(schema as object)) {
          throw new Error(`a route schema is not JSON Schema: ${meta.errorsText(meta.errors, { dataVar: 'schema' })}`);
        }
      }
    },
  };
}
