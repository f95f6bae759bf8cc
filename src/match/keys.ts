/**
 * The keys that find close-match candidates through an index, never by reading a type's records:
 * computed from a record's search keys when it is written (each store indexes them: memory in a
 * map, PostgreSQL in a table of its own) and from a query when it is asked, by this one code.
 *
 * A record gives, for each of its search keys (a party's normalised names and one date):
 * - `w`: the sound code of each word of the surname and forenames, with the date. Any one name
 *   right (or alike in sound) with the date right finds the record, whatever the other name: a
 *   misspelt, swapped, partial or nickname forename or surname.
 * - `y`: each surname word's code with the first forename's, and the year. The names right or alike
 *   in sound find the record with the day and month wrong (exchanged, or near within the year), or
 *   the date near across the turn of a year.
 * A wrong year (a digit out) is found by the `w` keys' date variants: no key of its own.
 *
 * A query asks for the keys its record would have, with the first forename's pet forms
 * (nicknames.ts) beside it: its `w` keys with every date its date may stand for (near, day and month
 * exchanged, a digit out: dates.ts), its `y` keys with the names swapped too and the years of the
 * days near its date. Candidates are the records sharing the most keys with it (see the stores).
 *
 * A key is a whole number below 2^53, a JavaScript number and a PostgreSQL bigint alike: the
 * FNV-1a hash of its kind and sound codes (31 bits, the highest always set) times 2^22, plus its
 * date part (`w`: the day's number, `y`: the year). Each key is thus 16
 * decimal digits, eight bytes in an index rather than the text, worked out with arithmetic rather
 * than by writing each date a query may stand for. Two keys with the same hash only bring a record
 * among the candidates, which its score then ranks as it ranks any candidate.
 */
import type { SearchKey } from '../types/records.ts';
import { NEAR_DAYS, dayNumber, dayVariants, yearOfDay } from './dates.ts';
import { nicknamesOf } from './nicknames.ts';
import { soundCodes } from './names.ts';

/** The part of a key below its hash: room for the day number of 9999-12-31. */
const DATE_PART = 2 ** 22;
const HASH_TOP = 0x40000000;

const FNV_OFFSET = 0x811c9dc5;
const BAR = 0x7c;

/** FNV-1a over `text` from `hash`. */
function fnv(hash: number, text: string): number {
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash;
}

/** The hash part of a key: FNV-1a of `kind|first` or `kind|first|second`, 31 bits with the highest set. */
function hashOf(kind: string, first: string, second?: string): number {
  let hash = Math.imul(fnv(FNV_OFFSET, kind) ^ BAR, 0x01000193);
  hash = fnv(hash, first);
  if (second !== undefined) hash = fnv(Math.imul(hash ^ BAR, 0x01000193), second);
  return ((hash >>> 1) | HASH_TOP) * DATE_PART;
}

const words = (name: string) => (name ? name.split(' ') : []);
const codesOfWords = (names: readonly string[]) => [...new Set(names.flatMap((word) => soundCodes(word)))];

const add = (found: number[], key: number) => {
  if (!found.includes(key)) found.push(key);
};

/** The keys a record's search keys give, each once, as numbers (what the stores index). */
export function suggestionKeyValues(keys: readonly SearchKey[]): number[] {
  // A handful a record: an array searched is cheaper than a set.
  const found: number[] = [];
  for (const key of keys) {
    const day = dayNumber(key.date);
    const surnameWords = words(key.surname);
    const forenameWords = words(key.forenames);
    for (const word of surnameWords) for (const code of soundCodes(word)) add(found, hashOf('w', code) + day);
    for (const word of forenameWords) for (const code of soundCodes(word)) add(found, hashOf('w', code) + day);
    if (!forenameWords.length) continue;
    const firstCodes = soundCodes(forenameWords[0]);
    const year = Number(key.date.slice(0, 4));
    for (const word of surnameWords) for (const surname of soundCodes(word)) for (const forename of firstCodes) add(found, hashOf('y', surname, forename) + year);
  }
  return found;
}

/** The keys to look up for a query (normalised names, a YYYY-MM-DD date), each once, as numbers. */
export function queryKeyValues(query: SearchKey): number[] {
  const found = new Set<number>();
  const surnameWords = words(query.surname);
  const forenameWords = words(query.forenames);
  const surnameCodes = codesOfWords(surnameWords);
  const first = forenameWords[0];
  const firstCodes = first ? codesOfWords([first, ...nicknamesOf(first)]) : [];
  // Each name's codes with every date the query's may stand for: one name right and the date near
  // or mistyped still finds the record, whatever the other name.
  const days = dayVariants(query.date);
  for (const code of new Set([...surnameCodes, ...codesOfWords(forenameWords), ...firstCodes])) {
    const hash = hashOf('w', code);
    for (const day of days) found.add(hash + day);
  }
  const day = dayNumber(query.date);
  const years = new Set([yearOfDay(day - NEAR_DAYS), yearOfDay(day), yearOfDay(day + NEAR_DAYS)]);
  const pairs: [string, string][] = [];
  for (const surname of surnameCodes) for (const forename of firstCodes) pairs.push([surname, forename]);
  // Names swapped: the surname given as the first forename, the first forename as the surname.
  if (first) for (const surname of soundCodes(first)) for (const forename of codesOfWords(surnameWords.slice(0, 1))) pairs.push([surname, forename]);
  for (const [surname, forename] of pairs) {
    const hash = hashOf('y', surname, forename);
    for (const year of years) found.add(hash + year);
  }
  return [...found];
}

/** The keys a record's search keys give, each once, written as PostgreSQL returns a bigint. */
export const suggestionKeys = (keys: readonly SearchKey[]): string[] => suggestionKeyValues(keys).map(String);

/** The keys to look up for a query, each once, written as PostgreSQL returns a bigint. */
export const queryKeys = (query: SearchKey): string[] => queryKeyValues(query).map(String);
