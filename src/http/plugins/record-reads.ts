/**
 * The routes that read registrations, with what they share: lookups and searches, verifications
 * and close matches; the rendered-record cache of lookups, searches and close matches; and the
 * watch on enumeration, one share for verifications and close matches (enumeration-watch.ts).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { VerificationConfig } from '../../config/verification.ts';
import type { CloseMatcher } from '../../match/suggest.ts';
import type { RecordReader } from '../../model/store.ts';
import type { RecordDescription } from '../../records/define.ts';
import { createRenderCache } from '../../render/cache.ts';
import type { CompiledView } from '../../render/view.ts';
import { watchEnumeration } from '../enumeration-watch.ts';
import { recordRoutes } from '../record-routes.ts';
import { suggestionRoutes } from '../suggestion-routes.ts';
import { verificationRoutes } from '../verification-routes.ts';

interface RecordReadsOptions {
  readonly descriptions: readonly RecordDescription[];
  readonly views: readonly CompiledView[];
  readonly store: RecordReader;
  /** Where close matches are found, when not on the event loop from `store`. */
  readonly findCloseMatches?: CloseMatcher;
  readonly maxResults: number;
  readonly renderCacheBytes: number;
  readonly falseShare: VerificationConfig['falseShare'];
  readonly suggestMinProbability: number;
}

export const recordReadsPlugin = fp(
  async function recordReads(app: FastifyInstance, options: RecordReadsOptions) {
    const { descriptions, views, store } = options;
    const rendered = createRenderCache(views, options.renderCacheBytes);
    await app.register(recordRoutes, { views, store, maxResults: options.maxResults, rendered });
    const enumeration = watchEnumeration(app, options.falseShare);
    await app.register(verificationRoutes, {
      records: descriptions,
      candidates: (type, key, limit, padTo, candidateOptions) =>
        store.verificationCandidates(type, key, limit, padTo, candidateOptions),
      enumeration,
    });
    await app.register(suggestionRoutes, {
      views,
      store,
      find: options.findCloseMatches,
      minProbability: options.suggestMinProbability,
      rendered,
      enumeration,
    });
  },
  { name: 'lev-record-reads' },
);
