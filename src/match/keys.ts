/**
 * The keys that find close-match candidates through an index, never by reading a type's records:
 * computed from a record's search keys when it is written (each store indexes them: memory in a
 * map, PostgreSQL in a table of its own) and from a query when it is asked, by this one code.
 *
 * A record gives, for each of its search keys (a party's normalised names and one date):
 * - `w|<code>|<date>`: the sound code of each word of the surname and forenames, with the date.
 *   Any one name right (or alike in sound) with the date right finds the record, whatever the
 *   other name: a misspelt, swapped, partial or nickname forename or surname.
 * - `y|<surname code>|<forename code>|<year>`: each surname word's code with the first forename's,
 *   and the year. The names right or alike in sound find the record with the day and month wrong
 *   (exchanged, or near within the year).
 * - `d|<surname code>|<forename code>|<MM-DD>`: the same with the day and month, for a wrong year.
 *
 * A query asks for the keys its record would have, with the first forename's pet forms
 * (nicknames.ts) beside it: its `w` keys with every date its date may stand for (near, day and month
 * exchanged, a digit out: dates.ts), its `y` and `d` keys with the names swapped too and the years of
 * the days near its date. Candidates are the records sharing the most keys with it (see the stores).
 */
import type { SearchKey } from '../types/records.ts';
import { NEAR_DAYS, addDays, dateVariants } from './dates.ts';
import { nicknamesOf } from './nicknames.ts';
import { soundCodes } from './names.ts';

const words = (name: string) => (name ? name.split(' ') : []);
const codesOfWords = (names: readonly string[]) => [...new Set(names.flatMap((word) => soundCodes(word)))];

/** The keys a record's search keys give, each once. */
export function suggestionKeys(keys: readonly SearchKey[]): string[] {
  const found = new Set<string>();
  for (const key of keys) {
    const surnameCodes = codesOfWords(words(key.surname));
    const forenameWords = words(key.forenames);
    for (const code of surnameCodes) found.add(`w|${code}|${key.date}`);
    for (const code of codesOfWords(forenameWords)) found.add(`w|${code}|${key.date}`);
    if (!forenameWords.length) continue;
    const firstCodes = soundCodes(forenameWords[0]);
    const year = key.date.slice(0, 4);
    const monthDay = key.date.slice(5);
    for (const surname of surnameCodes) {
      for (const forename of firstCodes) {
        found.add(`y|${surname}|${forename}|${year}`);
        found.add(`d|${surname}|${forename}|${monthDay}`);
      }
    }
  }
  return [...found];
}

/** The keys to look up for a query (normalised names, a YYYY-MM-DD date), each once. */
export function queryKeys(query: SearchKey): string[] {
  const found = new Set<string>();
  const surnameWords = words(query.surname);
  const forenameWords = words(query.forenames);
  const surnameCodes = codesOfWords(surnameWords);
  const first = forenameWords[0];
  const firstCodes = first ? codesOfWords([first, ...nicknamesOf(first)]) : [];
  // Each name's codes with every date the query's may stand for: one name right and the date near
  // or mistyped still finds the record, whatever the other name.
  const dates = dateVariants(query.date);
  for (const code of new Set([...surnameCodes, ...codesOfWords(forenameWords), ...firstCodes])) for (const date of dates) found.add(`w|${code}|${date}`);
  const years = new Set([addDays(query.date, -NEAR_DAYS), query.date, addDays(query.date, NEAR_DAYS)].map((date) => date.slice(0, 4)));
  const monthDay = query.date.slice(5);
  const pairs: [string, string][] = [];
  for (const surname of surnameCodes) for (const forename of firstCodes) pairs.push([surname, forename]);
  // Names swapped: the surname given as the first forename, the first forename as the surname.
  if (first) for (const surname of soundCodes(first)) for (const forename of codesOfWords(surnameWords.slice(0, 1))) pairs.push([surname, forename]);
  for (const [surname, forename] of pairs) {
    for (const year of years) found.add(`y|${surname}|${forename}|${year}`);
    found.add(`d|${surname}|${forename}|${monthDay}`);
  }
  return [...found];
}
