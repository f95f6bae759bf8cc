/**
 * A dependency loaded the first time it is used rather than at import. What only some
 * configurations need (Redis, client certificates) then stays out of the processes that do not use
 * it: the mock idles without their code and its heap (docs/store.md, "Why memory, not PGlite").
 * Through `require`, so that loading stays synchronous: each of them ships CommonJS.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A function giving the module `specifier`, loaded at its first call. */
export function whenNeeded<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
