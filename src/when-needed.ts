/**
 * A dependency loaded the first time it is used rather than at import. What only some
 * configurations need (Redis, client certificates) then stays out of the processes that do not use
 * it: the mock idles without their code and its heap (docs/store.md, "Why memory, not PGlite").
 * Through `require`, so that loading stays synchronous: each of them ships CommonJS.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Every package loaded so, by name: the compiled form leaves them in node_modules
 * (scripts/bundle.ts), where the name finds them, with what they require.
 */
export const LOADED_WHEN_NEEDED = [
  'ioredis',
  'qrcode',
  '@peculiar/x509',
  '@peculiar/asn1-rsa',
  '@peculiar/asn1-schema',
  '@peculiar/asn1-x509',
  'undici',
] as const;

/** A function giving the module `specifier`, loaded at its first call. */
export function whenNeeded<T>(specifier: (typeof LOADED_WHEN_NEEDED)[number]): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
