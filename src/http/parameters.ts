/**
 * Query and path parameter schemas of the record routes, derived from a view.
 * Each parameter's description states the expected form; validation errors
 * quote it, so the message a caller reads and the document agree.
 */
import type { ViewDescription } from '../records/views.ts';

export const MAX_NAME_LENGTH = 100;

const name = (whose: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  pattern: '^[^\\u0000-\\u001f\\u007f]*$',
  description: `${whose}: 1 to ${MAX_NAME_LENGTH} characters with at least one letter or digit and no control characters; case, accents, apostrophes, and spaces versus hyphens are ignored`,
});

const date = (what: string) => ({
  type: 'string',
  format: 'date',
  description: `${what}: a real calendar date written YYYY-MM-DD, e.g. 2008-08-08`,
  examples: ['2008-08-08'],
});

export function idParameters(view: ViewDescription) {
  return {
    type: 'object',
    properties: {
      [view.idParam]: {
        type: 'string',
        pattern: '^[0-9]+$',
        maxLength: 18,
        description: 'The system number of the registration: digits only, at most 18',
        examples: ['123456789'],
      },
    },
    required: [view.idParam],
  };
}

export function searchParameters(view: ViewDescription) {
  const q = view.query;
  const parts = q.forenameParts ?? [];
  const properties: Record<string, Record<string, unknown>> = {
    [q.forenames]: name(
      parts.length
        ? `Forenames, matched as whole leading words (or give ${parts.join(', ')} instead)`
        : 'Forenames, matched as whole leading words: Anne finds Anne Marie, not Annette',
    ),
    [q.surname]: name('Surname, matched in full'),
    [q.date]: date(view.record.search.dateDescription),
  };
  parts.forEach((part, i) => {
    properties[part] = { ...name(`Forename number ${i + 1}`), minLength: 0 };
  });
  return {
    type: 'object',
    properties,
    required: [q.surname, ...(parts.length ? [] : [q.forenames]), q.date],
  };
}
