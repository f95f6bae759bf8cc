/**
 * How much a search or a close-match query may return.
 */
import { Type } from '@sinclair/typebox';

export const MaxResults = {
  MAX_RESULTS: Type.Integer({ minimum: 1, maximum: 1000, default: 25, description: 'Most records a search returns' }),
};

export const SuggestMinProbability = {
  SUGGEST_MIN_PROBABILITY: Type.Number({
    minimum: 0.0001,
    maximum: 1,
    default: 0.001,
    description:
      'Lowest probability (0 to 1) of being the registration sought of a close match GET /v1/suggestions ' +
      'returns (docs/search.md): the evidence of two details right at least, so a vague query cannot page ' +
      'through the register; never under 0.0001',
  }),
};

export const SuggestThreads = {
  SUGGEST_THREADS: Type.Integer({
    minimum: 1,
    maximum: 32,
    default: 1,
    description:
      'Threads finding close matches, each with its own copy of the close-match index (the embedded ' +
      "store's, or PostgreSQL's with SUGGESTION_INDEX=service) and its memory: more than one where that " +
      "thread's core is busy and others are free (docs/performance.md)",
  }),
};
