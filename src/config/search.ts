/**
 * How much a search or a close-match query may return.
 */
import { Type } from '@sinclair/typebox';

export const MaxResults = {
  MAX_RESULTS: Type.Integer({ minimum: 1, maximum: 1000, default: 25, description: 'Most records a search returns' }),
};

export const SuggestMinScore = {
  SUGGEST_MIN_SCORE: Type.Number({
    minimum: 0.5,
    maximum: 1,
    default: 0.65,
    description:
      'Lowest score (0 to 1) of a close match GET /v1/suggestions returns: at 0.65 two of the surname, forenames and date must match well (docs/search.md); never under 0.5, so a vague query cannot page through the register',
  }),
};
