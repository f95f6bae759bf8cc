/**
 * The keys that find close-match candidates through an index, never by reading a type's records:
 * computed from a record's search keys when it is written (each store indexes them: memory in a
 * map, PostgreSQL in a table of its own) and from a query when it is asked, by this one code.
 *
 * Candidates are the union of several blocking passes, each a kind of key (PASSES), so that any two
 * details right find the record whatever the third:
 * - `date`: the date alone (every registration of that day), asked for the query's date and for it
 *   with the day and month exchanged. Surname and forenames both wrong, the date right.
 * - `names`: the sound codes of a surname word and the first forename together, with the decade,
 *   asked for every decade (the query's own, then its century's nearest first, then the rest). The
 *   names right or alike in sound, the date wrong however far (and the names exchanged); where a
 *   common name's records outrun the cap, those of the decades nearest the date asked are kept.
 * - `forename-month`: the first forename's code with the date's year and month, any surname. A
 *   married surname, or the other parent's, with the date right or near.
 * - `surname-month`: a surname word's code with the date's year and month, asked for every month
 *   of the year given as well. The forenames wrong and the day or month wrong, or the year a digit
 *   out.
 * - `surname-decade` and `forename-decade`: one name's code with the other's first letter and the
 *   decade. One name misspelt so that it no longer sounds alike (a key beside the one meant, a letter
 *   lost) and the date wrong anywhere in its decade: a typing error rarely touches a name's first
 *   letter, and a date written wrong rarely leaves its decade.
 * A query asks for the keys its record would have, the first forename's pet forms (nicknames.ts)
 * beside it, and for the year and month passes every year and month its date may stand for (a digit
 * out, near across a month or year end): a name right finds the record with the date a digit out
 * whatever the other name. Each pass takes the records sharing the most of its keys, then those of
 * its likeliest keys (a pass's keys are asked likeliest first: the month given before the months a
 * digit away), up to its cap: a cap that bites makes the answer `truncated`.
 *
 * A key is a whole number below 2^53, a JavaScript number and a PostgreSQL bigint alike: its date
 * part (`date`: the day's number, `forename-month` and `surname-month`: the year times 12 plus the
 * month less one, `names`, `surname-decade` and `forename-decade`: the year divided by ten)
 * times 2^31, plus the FNV-1a hash of its kind and sound codes (31 bits, the highest always set).
 * Eight bytes in an index rather than the text. The date part leads so that the keys of the latest
 * registrations lie together in PostgreSQL's index on the key table: a week's births written into a
 * full register touch the index's last pages of each date part rather than a page of their own
 * anywhere in it (docs/performance.md). Two keys with the same hash only bring a record among the
 * candidates, which its score then ranks as it ranks any candidate.
 */
import type { SearchKey } from '../model/records.ts';
import { NEAR_DAYS, dayNumber } from './dates.ts';
import { nicknamesOf } from './nicknames.ts';
import { soundCodes } from './names.ts';

/** The part of a key below its date part: the hash's 31 bits. The day number of 9999-12-31 times it is below 2^53. */
const HASH_SPAN = 2 ** 31;
const HASH_TOP = 0x40000000;

/** A key of `hash` (hashOf) and `datePart`. */
const keyOf = (hash: number, datePart: number) => datePart * HASH_SPAN + hash;

/** A key's hash, as keyOf put it in. */
export const hashOfKey = (key: number): number => key % HASH_SPAN;
/** A key's date part, as keyOf put it in. */
export const datePartOfKey = (key: number): number => Math.floor(key / HASH_SPAN);

const FNV_OFFSET = 0x811c9dc5;
const BAR = 0x7c;

/**
 * The blocking passes and each one's cap: the most records it brings to be scored. The date pass
 * takes a whole day of the national register (1,500 to 2,500 births a day); the names pass a
 * common name's share of it; the month and decade passes, whose keys are many and asked likeliest
 * first, the records of their likeliest keys (a common forename's month holds dozens at a million
 * births, and every one a candidate costs the scoring and reading of it).
 */
const PASSES = {
  date: { kind: 'd', cap: 2500 },
  names: { kind: 'n', cap: 200 },
  'forename-month': { kind: 'f', cap: 60 },
  'surname-month': { kind: 'm', cap: 60 },
  'surname-decade': { kind: 's', cap: 60 },
  'forename-decade': { kind: 'i', cap: 60 },
} as const;
type PassName = keyof typeof PASSES;

/** The keys one pass looks up, and how many records it may bring. */
export interface CandidatePass {
  readonly name: PassName;
  readonly keys: readonly number[];
  readonly limit: number;
}

/** FNV-1a over `text` from `hash`. */
function fnv(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/** The hash of a key: FNV-1a of `kind|first` or `kind|first|second`, 31 bits with the highest set. */
function hashOf(kind: string, first: string, second?: string): number {
  let hash = Math.imul(fnv(FNV_OFFSET, kind) ^ BAR, 0x01000193);
  hash = fnv(hash, first);
  if (second !== undefined) hash = fnv(Math.imul(hash ^ BAR, 0x01000193), second);
  return (hash >>> 1) | HASH_TOP;
}

const words = (name: string) => (name ? name.split(' ') : []);
function codesOfWords(names: readonly string[]): string[] {
  const codes: string[] = [];
  for (const word of names) for (const code of soundCodes(word)) if (!codes.includes(code)) codes.push(code);
  return codes;
}

const yearOf = (date: string) => Number(date.slice(0, 4));
const decadeOfYear = (year: number) => Math.floor(year / 10);
const decadeOf = (date: string) => decadeOfYear(yearOf(date));
/** A name's first letter, for the decade passes: the letter a typing error seldom changes. */
const initialOf = (name: string | undefined) => name?.[0] ?? '';
const monthOf = (date: string) => yearOf(date) * 12 + Number(date.slice(5, 7)) - 1;
/** The date with its day and month exchanged, when that is a date of its own. */
function exchanged(date: string): string | undefined {
  const day = Number(date.slice(8, 10));
  return day <= 12 && date.slice(8, 10) !== date.slice(5, 7)
    ? `${date.slice(0, 4)}-${date.slice(8, 10)}-${date.slice(5, 7)}`
    : undefined;
}

/** Two-digit numbers one digit from `value` (a digit changed, or the two exchanged), `value` first. */
function digitVariants(value: number): number[] {
  const tens = Math.floor(value / 10);
  const units = value % 10;
  const found = new Set([value]);
  for (let digit = 0; digit <= 9; digit++) {
    found.add(digit * 10 + units);
    found.add(tens * 10 + digit);
  }
  found.add(units * 10 + tens);
  return [...found];
}

/**
 * The years a query's date may stand for: its own, the years next to it, and those a digit away
 * (within the century's last two digits, or those two exchanged).
 */
function yearVariants(date: string): number[] {
  const year = yearOf(date);
  const century = year - (year % 100);
  return [...new Set([year, year - 1, year + 1, ...digitVariants(year % 100).map((y) => century + y)])];
}

/**
 * The months (year times 12 plus month less one) a query's date may stand for, likeliest first: its
 * own; the next or last month when the date is within a few days of it; the day taken for the
 * month; the same month of the years next to it; the month with a digit out; the same month of the
 * years a digit away.
 */
function monthVariants(date: string): number[] {
  const year = yearOf(date);
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const found = new Set<number>();
  const add = (y: number, m: number) => {
    if (m >= 1 && m <= 12) found.add(y * 12 + m - 1);
  };
  add(year, month);
  if (day <= NEAR_DAYS) found.add(year * 12 + month - 2);
  if (day >= 28 - NEAR_DAYS) found.add(year * 12 + month);
  add(year, day);
  add(year - 1, month);
  add(year + 1, month);
  for (const m of digitVariants(month)) add(year, m);
  for (const y of yearVariants(date)) add(y, month);
  return [...found];
}

/** The first decade of the register: civil registration began in 1837. */
const FIRST_DECADE = 183;

/**
 * Every decade a registration may be in, likeliest first: the query's own and that of the year next
 * to it; then those its year's tens digit out falls in (the decades of its century), nearest first;
 * then the rest, outward, to this decade (a query's keys only: a record's never depend on the day).
 */
function decadesNearest(date: string): number[] {
  const year = yearOf(date);
  const decade = decadeOfYear(year);
  const last = Math.max(decade, decadeOfYear(new Date().getUTCFullYear()));
  const century = decadeOfYear(year - (year % 100));
  const found = new Set([decade]);
  for (const next of [year - 1, year + 1]) if (decadeOfYear(next) <= last) found.add(decadeOfYear(next));
  const outward = (within: (d: number) => boolean) => {
    for (let apart = 1; decade - apart >= FIRST_DECADE || decade + apart <= last; apart++)
      for (const d of [decade - apart, decade + apart]) if (d >= FIRST_DECADE && d <= last && within(d)) found.add(d);
  };
  outward((d) => d >= century && d < century + 10);
  outward(() => true);
  return [...found];
}

const add = (found: number[], key: number) => {
  if (!found.includes(key)) found.push(key);
};

/** The keys a record's search keys give, each once, as numbers (what the stores index). */
export function suggestionKeyValues(keys: readonly SearchKey[]): number[] {
  // A handful a record: an array searched is cheaper than a set.
  const found: number[] = [];
  for (const key of keys) {
    add(found, keyOf(hashOf(PASSES.date.kind, ''), dayNumber(key.date)));
    const surnameCodes = codesOfWords(words(key.surname));
    for (const code of surnameCodes) add(found, keyOf(hashOf(PASSES['surname-month'].kind, code), monthOf(key.date)));
    const first = words(key.forenames)[0];
    if (!first) continue;
    const firstCodes = soundCodes(first);
    for (const code of firstCodes) add(found, keyOf(hashOf(PASSES['forename-month'].kind, code), monthOf(key.date)));
    const decade = decadeOf(key.date);
    for (const surname of surnameCodes)
      for (const forename of firstCodes) add(found, keyOf(hashOf(PASSES.names.kind, surname, forename), decade));
    for (const code of surnameCodes)
      add(found, keyOf(hashOf(PASSES['surname-decade'].kind, code, initialOf(first)), decade));
    for (const code of firstCodes)
      add(found, keyOf(hashOf(PASSES['forename-decade'].kind, code, initialOf(key.surname)), decade));
  }
  return found;
}

/** The passes to look up for a query (normalised names, a YYYY-MM-DD date), each key once, as numbers. */
export function candidatePasses(query: SearchKey): CandidatePass[] {
  const surnameWords = words(query.surname);
  const forenameWords = words(query.forenames);
  const surnameCodes = codesOfWords(surnameWords);
  const first = forenameWords[0];
  const firstCodes = first ? codesOfWords([first, ...nicknamesOf(first)]) : [];
  const other = exchanged(query.date);
  const date = [query.date, ...(other ? [other] : [])].map((day) =>
    keyOf(hashOf(PASSES.date.kind, ''), dayNumber(day)),
  );
  const nameHashes = new Set<number>();
  for (const surname of surnameCodes)
    for (const forename of firstCodes) nameHashes.add(hashOf(PASSES.names.kind, surname, forename));
  // Names exchanged: the first forename given as the surname, the surname's first word as the forename.
  if (first && surnameWords.length) {
    for (const surname of soundCodes(first))
      for (const forename of soundCodes(surnameWords[0])) nameHashes.add(hashOf(PASSES.names.kind, surname, forename));
  }
  const names: number[] = [];
  for (const d of decadesNearest(query.date)) for (const hash of nameHashes) names.push(keyOf(hash, d));
  // The year and month a digit out, or near across a month or year, as far as a key can ask.
  const months = monthVariants(query.date);
  // Month by month, likeliest first (a pass takes the records of its earliest keys first), each
  // month with every code.
  // (Loops, not flatMap: V8's flatMap took half of working out a query's keys.)
  const monthKeys = (kind: string, codes: readonly string[], asked: readonly number[]) => {
    const hashes = codes.map((code) => hashOf(kind, code));
    const keys: number[] = [];
    for (const m of asked) for (const hash of hashes) keys.push(keyOf(hash, m));
    return keys;
  };
  const month = monthKeys(PASSES['forename-month'].kind, firstCodes, months);
  // The surname's pass also asks every month of the year given: the forenames and the day and month wrong.
  const year = yearOf(query.date) * 12;
  const surnameMonths = [...new Set([...months, ...Array.from({ length: 12 }, (_, m) => year + m)])];
  const surnameMonth = monthKeys(PASSES['surname-month'].kind, surnameCodes, surnameMonths);
  // The decade passes ask the name as given only: a nickname or a sound-alike with another name's
  // initial and a date anywhere in the decade is too little to go on.
  const decade = decadeOf(query.date);
  const surnameDecade = first
    ? surnameCodes.map((code) => keyOf(hashOf(PASSES['surname-decade'].kind, code, initialOf(first)), decade))
    : [];
  const forenameDecade = first
    ? soundCodes(first).map((code) =>
        keyOf(hashOf(PASSES['forename-decade'].kind, code, initialOf(query.surname)), decade),
      )
    : [];
  const pass = (name: PassName, keys: readonly number[]): CandidatePass => ({ name, keys, limit: PASSES[name].cap });
  return [
    pass('date', date),
    pass('names', [...names]),
    pass('forename-month', month),
    pass('surname-month', surnameMonth),
    pass('surname-decade', surnameDecade),
    pass('forename-decade', forenameDecade),
  ];
}

/** Every key a query looks up, each once, as numbers. */
const queryKeyValues = (query: SearchKey): number[] => [
  ...new Set(candidatePasses(query).flatMap((pass) => pass.keys)),
];

/** The keys a record's search keys give, each once, written as PostgreSQL returns a bigint. */
export const suggestionKeys = (keys: readonly SearchKey[]): string[] => suggestionKeyValues(keys).map(String);

/** Every key a query looks up, each once, written as PostgreSQL returns a bigint. */
export const queryKeys = (query: SearchKey): string[] => queryKeyValues(query).map(String);
