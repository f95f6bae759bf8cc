/**
 * The error model of the close-match evaluation's second half: errors of the kinds published
 * record-linkage data generators make when they turn a record into a duplicate (typing, OCR and
 * phonetic errors, values missing or replaced by another real value, dates with digits changed,
 * fields exchanged), written here from those generators' published descriptions, not from this
 * service's rules: it makes errors the matcher was not written for. Never tuned to a published
 * linkage data set.
 *
 * A record gets 0 to 3 errors (MAX_PER_RECORD), at most 2 on one detail (MAX_PER_FIELD), each
 * detail and each kind of error chosen by the weights below. Seeded: the same Random gives the same
 * errors.
 */
import { isIsoDate } from '../../src/records/dates.ts';
import type { Random } from '../../src/generate/random.ts';
import type { Details } from './corrupt.ts';

export const MAX_PER_RECORD = 3;
export const MAX_PER_FIELD = 2;

/** How many errors a record gets: the generators' usual spread, most with one or two. */
const ERRORS_PER_RECORD: readonly [number, number][] = [
  [0, 0.1],
  [1, 0.4],
  [2, 0.3],
  [3, 0.2],
];

/** Values of the same field of other records, for an error that puts a real value in the wrong place. */
export interface RealValues {
  readonly surnames: readonly string[];
  readonly forenames: readonly string[];
}

export type Field = 'surname' | 'forenames' | 'date';
export const FIELDS: readonly Field[] = ['surname', 'forenames', 'date'];

/** A detail with its errors so far; `undefined` when the value went missing. */
interface Working {
  surname: string | undefined;
  forenames: string | undefined;
  date: string | undefined;
}

/** What was done to a record's details, and what they became. */
export interface Corrupted {
  /** Absent where a value went missing. */
  readonly details: { readonly surname?: string; readonly forenames?: string; readonly date?: string };
  /** The details changed (a value replaced by one equal to it is no change). */
  readonly changed: ReadonlySet<Field>;
  /** The kinds of error applied, in order, as `field:kind`. */
  readonly errors: readonly string[];
}

// Typing errors: a key of a QWERTY keyboard and those beside it on its row and the rows above and below.
const ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];
const NEIGHBOURS = new Map<string, string>();
ROWS.forEach((row, r) => {
  for (let i = 0; i < row.length; i++) {
    const near = [
      row[i - 1],
      row[i + 1],
      ROWS[r - 1]?.[i],
      ROWS[r - 1]?.[i + 1],
      ROWS[r + 1]?.[i - 1],
      ROWS[r + 1]?.[i],
    ];
    NEIGHBOURS.set(row[i], near.filter((c): c is string => c !== undefined).join(''));
  }
});
const DIGIT_NEIGHBOURS = '1234567890';

/** Optical character recognition's usual confusions, each way. */
const OCR: readonly [string, string][] = [
  ['m', 'rn'],
  ['d', 'cl'],
  ['w', 'vv'],
  ['h', 'li'],
  ['o', '0'],
  ['l', '1'],
  ['i', 'l'],
  ['s', '5'],
  ['b', '6'],
  ['g', '9'],
  ['e', 'c'],
  ['u', 'v'],
  ['n', 'ri'],
  ['a', 'o'],
  ['q', 'g'],
  ['z', '2'],
];

/**
 * Phonetic respellings: a spelling written for another of the same sound, as a clerk hearing a name
 * might write it. Each rule is a pattern and what it is written as.
 */
const PHONETIC: readonly [RegExp, string][] = [
  [/ph/, 'f'],
  [/f/, 'ph'],
  [/ck/, 'k'],
  [/k/, 'ck'],
  [/c(?=[aou])/, 'k'],
  [/k(?=[aou])/, 'c'],
  [/ie$/, 'y'],
  [/y$/, 'ie'],
  [/ey$/, 'y'],
  [/ou/, 'ow'],
  [/ow/, 'ou'],
  [/ae/, 'e'],
  [/sch/, 'sh'],
  [/gh/, 'g'],
  [/^mac/, 'mc'],
  [/^mc/, 'mac'],
  [/th/, 't'],
  [/ei/, 'ie'],
  [/ie/, 'ei'],
  [/ai/, 'ay'],
  [/ay/, 'ai'],
  [/([bcdfglmnprst])\1/, '$1'],
  [/([bdglmnprt])(?=[aeiou])/, '$1$1'],
  [/s$/, 'ss'],
  [/z/, 's'],
  [/s(?=[aeiou])/, 'z'],
  [/x/, 'ks'],
  [/ks/, 'x'],
  [/qu/, 'kw'],
  [/wr/, 'r'],
  [/kn/, 'n'],
  [/ee/, 'ea'],
  [/ea/, 'ee'],
  [/oo/, 'u'],
  [/er$/, 'ar'],
  [/or$/, 'er'],
  [/son$/, 'sen'],
  [/sen$/, 'son'],
  [/e$/, ''],
  [/([^aeiouy])$/, '$1e'],
  [/i/, 'y'],
  [/y/, 'i'],
  [/tch/, 'ch'],
  [/dge/, 'ge'],
  [/ough/, 'off'],
  [/v/, 'w'],
  [/w/, 'v'],
];

const NAME_ERRORS: readonly [string, number][] = [
  ['keyboard', 0.2],
  ['insert', 0.1],
  ['delete', 0.1],
  ['transpose', 0.1],
  ['ocr', 0.1],
  ['phonetic', 0.2],
  ['real-value', 0.15],
  ['missing', 0.05],
];

const DATE_ERRORS: readonly [string, number][] = [
  ['one-digit', 0.35],
  ['two-digits', 0.2],
  ['day-month', 0.2],
  ['same-decade', 0.15],
  ['missing', 0.1],
];

/** The share of a record's errors that exchange the surname and forenames. */
const NAMES_EXCHANGED = 0.05;

function weighted(r: Random, list: readonly (readonly [string | number, number])[]) {
  let u = r.float() * list.reduce((sum, [, w]) => sum + w, 0);
  for (const [item, w] of list) {
    u -= w;
    if (u < 0) return item;
  }
  return list[list.length - 1][0];
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Keeps a name's capitals where the text still has letters in their places: the generators type in lower case. */
const retyped = (before: string, after: string) =>
  before[0] === before[0]?.toUpperCase() && after ? after[0].toUpperCase() + after.slice(1) : after;

function typing(name: string, kind: string, r: Random): string | undefined {
  const lower = name.toLowerCase();
  if (lower.length < 2) return undefined;
  const at = r.int(0, lower.length - 1);
  switch (kind) {
    case 'keyboard': {
      const near = NEIGHBOURS.get(lower[at]) ?? (/[0-9]/.test(lower[at]) ? DIGIT_NEIGHBOURS : '');
      if (!near) return undefined;
      return retyped(name, lower.slice(0, at) + r.pick([...near]) + lower.slice(at + 1));
    }
    case 'insert': {
      // Mostly a key beside one typed, or the same key twice.
      const near = NEIGHBOURS.get(lower[at]);
      const letter = near && r.chance(0.7) ? r.pick([...(near + lower[at])]) : r.pick([...LETTERS]);
      return retyped(name, lower.slice(0, at + 1) + letter + lower.slice(at + 1));
    }
    case 'delete':
      return lower.length < 3 ? undefined : retyped(name, lower.slice(0, at) + lower.slice(at + 1));
    case 'transpose': {
      const i = Math.min(at, lower.length - 2);
      if (lower[i] === lower[i + 1]) return undefined;
      return retyped(name, lower.slice(0, i) + lower[i + 1] + lower[i] + lower.slice(i + 2));
    }
    case 'ocr': {
      const options = OCR.flatMap(
        ([a, b]) =>
          [
            [a, b],
            [b, a],
          ] as const,
      ).filter(([from]) => lower.includes(from));
      if (!options.length) return undefined;
      const [from, to] = r.pick(options);
      const places: number[] = [];
      for (let i = lower.indexOf(from); i >= 0; i = lower.indexOf(from, i + 1)) places.push(i);
      const i = r.pick(places);
      return retyped(name, lower.slice(0, i) + to + lower.slice(i + from.length));
    }
    default: {
      const rules = PHONETIC.filter(([pattern]) => pattern.test(lower));
      for (let tries = 0; tries < 4 && rules.length; tries++) {
        const [pattern, to] = rules.splice(r.int(0, rules.length - 1), 1)[0];
        const changed = lower.replace(pattern, to);
        if (changed !== lower && changed.length > 1) return retyped(name, changed);
      }
      return undefined;
    }
  }
}

/** A name with one error of `kind` in one of its words; undefined when the kind does not apply to it. */
function nameError(name: string, kind: string, pool: readonly string[], r: Random): string | undefined {
  if (kind === 'real-value') {
    for (let tries = 0; tries < 5; tries++) {
      const other = r.pick(pool);
      if (other !== name) return other;
    }
    return undefined;
  }
  const words = name.split(' ');
  const i = r.int(0, words.length - 1);
  const changed = typing(words[i], kind, r);
  if (changed === undefined) return undefined;
  words[i] = changed;
  return words.join(' ');
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date with one error of `kind`; it may no longer be a date (a month of 13), as a form may hold. */
function dateError(date: string, kind: string, r: Random): string | undefined {
  const digits = [0, 1, 2, 3, 5, 6, 8, 9];
  const changeDigit = (text: string, at: number) => {
    let digit = text[at];
    while (digit === text[at]) digit = String(r.int(0, 9));
    return text.slice(0, at) + digit + text.slice(at + 1);
  };
  switch (kind) {
    case 'one-digit':
      // The century's digits are rarely wrong on a form: the decade, year, month and day's are.
      return changeDigit(date, r.pick(digits.slice(2)));
    case 'two-digits': {
      const [a, b] = [r.pick(digits.slice(2)), r.pick(digits.slice(2))];
      if (a === b) return undefined;
      return changeDigit(changeDigit(date, a), b);
    }
    case 'day-month': {
      const swapped = `${date.slice(0, 4)}-${date.slice(8, 10)}-${date.slice(5, 7)}`;
      return swapped === date ? undefined : swapped;
    }
    default: {
      const year = Number(date.slice(0, 4));
      const decade = year - (year % 10);
      for (let tries = 0; tries < 10; tries++) {
        const other = `${pad(decade + r.int(0, 9), 4)}-${pad(r.int(1, 12))}-${pad(r.int(1, 28))}`;
        if (other !== date) return other;
      }
      return undefined;
    }
  }
}

/** A record's details with errors, chosen by `r`. */
export function withErrors(details: Details, values: RealValues, r: Random): Corrupted {
  const working: Working = { ...details };
  const perField: Record<Field, number> = { surname: 0, forenames: 0, date: 0 };
  const errors: string[] = [];
  const wanted = weighted(r, ERRORS_PER_RECORD) as number;
  for (let tries = 0; errors.length < wanted && tries < 20; tries++) {
    if (r.chance(NAMES_EXCHANGED)) {
      if (
        perField.surname >= MAX_PER_FIELD ||
        perField.forenames >= MAX_PER_FIELD ||
        !working.surname ||
        !working.forenames
      )
        continue;
      [working.surname, working.forenames] = [working.forenames, working.surname];
      perField.surname++;
      perField.forenames++;
      errors.push('names:exchanged');
      continue;
    }
    const field = r.pick(FIELDS.filter((f) => perField[f] < MAX_PER_FIELD && working[f] !== undefined));
    if (!field) break;
    const value = working[field] as string;
    const kind = weighted(r, field === 'date' ? DATE_ERRORS : NAME_ERRORS) as string;
    let changed: string | undefined;
    if (kind === 'missing') changed = '';
    else if (field === 'date') changed = dateError(value, kind, r);
    else changed = nameError(value, kind, field === 'surname' ? values.surnames : values.forenames, r);
    if (changed === undefined) continue;
    working[field] = changed === '' ? undefined : changed;
    perField[field]++;
    errors.push(`${field}:${kind}`);
  }
  const changed = new Set<Field>(FIELDS.filter((f) => working[f] !== details[f]));
  const out: { surname?: string; forenames?: string; date?: string } = {};
  for (const f of FIELDS) if (working[f] !== undefined) out[f] = working[f];
  return { details: out, changed, errors };
}

/** Whether the details can be asked at all: all three present, the date a real date (else the route answers 400). */
export const askable = (d: Corrupted['details']): d is Details =>
  d.surname !== undefined && d.forenames !== undefined && d.date !== undefined && isIsoDate(d.date);

/** The group a query is reported in: the details its errors changed, named in a fixed order. */
export const groupOf = (changed: ReadonlySet<Field>): string =>
  changed.size ? FIELDS.filter((f) => changed.has(f)).join(' + ') : 'none';
