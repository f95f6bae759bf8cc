/**
 * Query and path parameter schemas of the record routes, derived from a view.
 * Each parameter's description states the expected form; validation errors
 * quote it, so the message a caller reads and the document agree.
 */
import type { ViewDescription } from '../records/views.ts';
import { ISO_DATE_PATTERN } from '../records/dates.ts';
import { SYSTEM_NUMBER_PATTERN } from '../records/system-number.ts';

const MAX_NAME_LENGTH = 100;

/** Schema keyword stating a parameter's expected form; validation messages quote it. */
export const EXPECTED = 'x-expected';

const NAME_FORM = `1 to ${MAX_NAME_LENGTH} characters, at least one a letter or digit, no control characters`;

/** Any run of characters but C0 controls, DEL and C1 controls (U+0080 to U+009F). */
const NO_CONTROLS = '[^\\u0000-\\u001f\\u007f-\\u009f]*';
/**
 * A letter or digit that normalisation keeps (records/normalise.ts). A few are letters to Unicode
 * but leave nothing: the modifier-letter apostrophe (U+02BC) is dropped like any apostrophe, and
 * the Greek ypogegrammeni (U+037A), some Arabic presentation forms (U+FC5E-FC63 and the isolated
 * vowel signs U+FE70-FE7E) and the half-width katakana sound marks (U+FF9E, U+FF9F) decompose into
 * a space and combining marks. A name without a letter or digit normalises to nothing and matches
 * nothing; the document says so with this pattern, and validation refuses it. A test holds the
 * list to what normalisation does with every character.
 */
const LETTER_OR_DIGIT =
  '(?![\\u02bc\\u037a\\ufc5e-\\ufc63\\ufe70\\ufe72\\ufe74\\ufe76\\ufe78\\ufe7a\\ufe7c\\ufe7e\\uff9e\\uff9f])[\\p{L}\\p{N}]';
/** No control characters, at least one letter or digit. */
export const NAME_PATTERN = `^${NO_CONTROLS}${LETTER_OR_DIGIT}${NO_CONTROLS}$`;
const NO_CONTROLS_PATTERN = `^${NO_CONTROLS}$`;

const name = (description: string) => ({
  type: 'string',
  minLength: 1,
  maxLength: MAX_NAME_LENGTH,
  pattern: NAME_PATTERN,
  description: `${description}. Case, accents and apostrophes are ignored, and hyphens count as spaces.`,
  [EXPECTED]: NAME_FORM,
});

const date = (description: string) => ({
  type: 'string',
  format: 'date',
  pattern: ISO_DATE_PATTERN,
  description,
  examples: ['2008-08-08'],
  [EXPECTED]: 'a real calendar date written YYYY-MM-DD, e.g. 2008-08-08',
});

const systemNumber = (description: string) => ({
  type: 'string',
  // Leading zeros are ignored, so they do not count towards the 18 digits.
  pattern: SYSTEM_NUMBER_PATTERN,
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
  // Each word may be empty or punctuation; the words together need a letter or digit (below).
  parts.forEach((part, i) => {
    properties[part] = {
      ...name(`Forename number ${i + 1}`),
      minLength: 0,
      pattern: NO_CONTROLS_PATTERN,
      [EXPECTED]: `up to ${MAX_NAME_LENGTH} characters, no control characters`,
    };
  });
  return {
    type: 'object',
    properties,
    required: [q.surname, ...(parts.length ? [] : [q.forenames]), q.date],
  };
}

/**
 * What no parameter's own schema can say, as a JSON Schema of the whole query (OpenAPI 3.2's
 * `in: querystring`; the 3.1 document carries it as `x-querystring-schema`): in v0, the forenames
 * come whole or word by word, never both, and the words need a letter or digit among them. The
 * routes check it in record-routes.ts (`forenamesOf`); test/http/conformance.test.ts holds the two
 * equal.
 */
export function searchQueryRule(view: ViewDescription): Record<string, unknown> | undefined {
  const parts = view.query.forenameParts;
  if (!parts?.length) return undefined;
  const [first] = parts;
  const given = parts.map((part) => ({ required: [part] }));
  return {
    oneOf: [
      { required: [view.query.forenames], not: { anyOf: given } },
      {
        not: { required: [view.query.forenames] },
        required: [first],
        properties: { [first]: { minLength: 1 } },
        anyOf: parts.map((part) => ({ required: [part], properties: { [part]: { pattern: NAME_PATTERN } } })),
      },
    ],
  };
}

/** The builders, for other routes' parameters of the same kinds (verification). */
export { NAME_FORM, name as nameParameter, date as dateParameter, systemNumber as systemNumberParameter };
