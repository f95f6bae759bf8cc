/**
 * The bound of the rendered-record cache (render/cache.ts).
 */
import { Type } from '@sinclair/typebox';

/**
 * The embedded store's records are few and all in memory already, so their renderings are found
 * again: 256 MB (a bound, not a reservation) holds the benchmark's 80,000 records' renderings.
 * With a server there is no default cache: at national size lookups rarely repeat soon enough
 * to be found, and a cache that mostly misses costs memory and garbage collection (measured at
 * 10,000,000 births: 64 MB of cache took the process from 149 to 350 MB and slowed lookups).
 */
const EMBEDDED_RENDER_CACHE_MB = 256;

export const RenderCache = {
  RENDER_CACHE_MB: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 65536,
      description:
        'Memory for rendered records, each reused while its stored text is unchanged (least recently used go first); ' +
        `0 for none. Default ${EMBEDDED_RENDER_CACHE_MB} on the embedded store, 0 (none) with DATABASE_URL`,
    }),
  ),
};

/** The cache's bound in bytes (string lengths); 0 for none. */
export const renderCacheBytesOf = (value: { RENDER_CACHE_MB?: number; DATABASE_URL?: string }): number =>
  (value.RENDER_CACHE_MB ?? (value.DATABASE_URL ? 0 : EMBEDDED_RENDER_CACHE_MB)) * 1024 * 1024;
