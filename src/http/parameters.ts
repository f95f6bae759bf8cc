/**
 * Query and path parameter schemas of the record routes, derived from a view.
 * Each parameter's description states the expected form; validation errors
 * quote it, so the message a caller reads and the document agree.
 */
import type { ViewDescription } from '../records/views.ts';
import { ISO_DATE_PATTERN } from '../records/dates.ts';
import { SYSTEM_NUMBER_PATTERN } from '../records/system-number.ts';
import { QUERY_RULES, type QueryRule } from './query-rules.ts';

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
  '(?![\\u02bc\\u037a\\ufc5e-\\ufc63\\ufe70\\ufe72\\ufe74\\ufe76\\ufe78\\ufe7a\\ufe7c\\ufe7e' +
  '\\uff9e\\uff9f])[\\p{L}\\p{N}]';
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
  // Each word may be empty or punctuation; the words together need a letter or digit (forenameRules).
  parts.forEach((part, i) => {
    properties[part] = {
      ...name(`Forename number ${i + 1}`),
      minLength: 0,
      pattern: NO_CONTROLS_PATTERN,
      [EXPECTED]: `up to ${MAX_NAME_LENGTH} characters, no control characters`,
    };
  });
  const rules = forenameRules(view);
  return {
    type: 'object',
    properties,
    required: [q.surname, ...(parts.length ? [] : [q.forenames]), q.date],
    ...(rules.length ? { [QUERY_RULES]: rules } : {}),
  };
}

/** A v0 forename word: what a rule says of one of them. */
const word = (name: string, schema: Record<string, unknown>) => ({
  type: 'object',
  required: [name],
  properties: { [name]: { type: 'string', ...schema } },
});

/**
 * What no parameter's own schema can say (query-rules.ts): in v0, the forenames come whole or
 * word by word, never both, the first word not empty, and the words need a letter or digit among
 * them. Checked in this order, after each parameter's own schema.
 */
function forenameRules(view: ViewDescription): QueryRule[] {
  const parts = view.query.forenameParts;
  if (!parts?.length) return [];
  const { forenames } = view.query;
  const [first] = parts;
  const alternative = `'${forenames}' or '${first}' (with optional ${parts
    .slice(1)
    .map((part) => `'${part}'`)
    .join(', ')})`;
  const whole = { type: 'object', required: [forenames] };
  return [
    {
      schema: { type: 'object', not: { ...whole, anyOf: parts.map((part) => ({ type: 'object', required: [part] })) } },
      message: `Give either ${alternative}, not both`,
      example: { [forenames]: 'Anne', [first]: 'Anne' },
    },
    {
      schema: { type: 'object', anyOf: [whole, word(first, { minLength: 1 })] },
      message: `Missing query parameter: give ${alternative}`,
      example: parts.length > 1 ? { [parts[1]]: 'Anne' } : { [first]: '' },
    },
    {
      schema: { type: 'object', anyOf: [whole, ...parts.map((part) => word(part, { pattern: NAME_PATTERN }))] },
      message: `Invalid query parameter '${first}': the forenames must contain at least one letter or digit`,
      example: { [first]: '-' },
    },
  ];
}

/** The builders, for other routes' parameters of the same kinds (verification). */
export { NAME_FORM, name as nameParameter, date as dateParameter, systemNumber as systemNumberParameter };
