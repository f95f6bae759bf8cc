/**
 * Query and path parameter schemas of the record routes, derived from a view.
 * Each parameter's description states the expected form; validation errors
 * quote it, so the message a caller reads and the document agree.
 */
import type { ViewDescription } from '../records/views.ts';

export const MAX_NAME_LENGTH = 100;

/** Schema keyword stating a parameter's expected form; validation messages quote it. */
export const EXPECTED = 'x-expected';

const NAME_FORM = `1 to ${MAX_NAME_LENGTH} characters, at least one a letter or digit, no control characters`;

const name = (description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  // C0 controls, DEL and C1 controls (U+0080 to U+009F).
  pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$',
  description: `${description}. Case, accents and apostrophes are ignored, and hyphens count as spaces.`,
  [EXPECTED]: NAME_FORM,
});

const date = (description: string) => ({
  type: 'string',
  format: 'date',
  description,
  examples: ['2008-08-08'],
  [EXPECTED]: 'a real calendar date written YYYY-MM-DD, e.g. 2008-08-08',
});

const systemNumber = (description: string) => ({
  type: 'string',
  // Leading zeros are ignored, so they do not count towards the 18 digits.
  pattern: '^0*[0-9]{1,18}$',
  description: `${description}; leading zeros are ignored`,
  [EXPECTED]: 'a whole number of at most 18 digits, leading zeros aside',
  examples: ['123456789'],
});

export function idParameters(view: ViewDescription) {
  return {
    type: 'object',
    properties: { [view.idParam]: systemNumber('The system number of the registration') },
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
    properties[part] = { ...name(`Forename number ${i + 1}`), minLength: 0, [EXPECTED]: `up to ${NAME_FORM}` };
  });
  return {
    type: 'object',
    properties,
    required: [q.surname, ...(parts.length ? [] : [q.forenames]), q.date],
  };
}

/** The builders, for other routes' parameters of the same kinds (verification). */
export { NAME_FORM, name as nameParameter, date as dateParameter, systemNumber as systemNumberParameter };
