/**
 * The generator's dates, as day numbers (days since 1970-01-01). Every date it writes falls in
 * 1850-2030, so their ISO strings, years and month-days are worked out once into a table and a
 * record's dates cost an array read each: the generator makes millions of them.
 */
import { daysFromCivil } from '../match/dates.ts';
import type { Random } from './random.ts';

/** daysFromCivil counts from 0000-03-01; 1970-01-01 is its day 719,468. */
const UNIX_EPOCH = 719_468;

/** Day number of a calendar date (proleptic Gregorian). */
export const dayNumber = (year: number, month: number, day: number): number =>
  daysFromCivil(year, month, day) - UNIX_EPOCH;

const TABLE_FIRST_YEAR = 1850;
const TABLE_LAST_YEAR = 2030;
const TABLE_START = dayNumber(TABLE_FIRST_YEAR, 1, 1);
const TABLE_SIZE = dayNumber(TABLE_LAST_YEAR + 1, 1, 1) - TABLE_START;
const ISO: string[] = new Array(TABLE_SIZE);
const YEAR = new Uint16Array(TABLE_SIZE);
const MONTH_DAY = new Uint16Array(TABLE_SIZE);
{
  const monthLength = (y: number, m: number) =>
    m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
  let i = 0;
  for (let y = TABLE_FIRST_YEAR; y <= TABLE_LAST_YEAR; y++) {
    for (let m = 1; m <= 12; m++) {
      const prefix = `${y}-${m < 10 ? '0' : ''}${m}-`;
      for (let d = 1, n = monthLength(y, m); d <= n; d++, i++) {
        ISO[i] = `${prefix}${d < 10 ? '0' : ''}${d}`;
        YEAR[i] = y;
        MONTH_DAY[i] = m * 100 + d;
      }
    }
  }
}

export const iso = (day: number): string => ISO[day - TABLE_START];
export const yearOf = (day: number): number => YEAR[day - TABLE_START];
export const parseDay = (date: string): number =>
  dayNumber(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));
/** 0 is Sunday, 6 Saturday. */
export const weekday = (day: number): number => (((day + 4) % 7) + 7) % 7;

/** Age in completed years on `day` of someone born on `born`. */
export function ageOn(born: number, day: number): number {
  const years = yearOf(day) - yearOf(born);
  return MONTH_DAY[day - TABLE_START] < MONTH_DAY[born - TABLE_START] ? years - 1 : years;
}

/** A birthday of someone who is `years` old (in completed years) on `day`. */
export function yearsBefore(r: Random, day: number, years: number): number {
  const monthDay = MONTH_DAY[day - TABLE_START];
  const month = Math.floor(monthDay / 100);
  const date = monthDay % 100;
  const anniversary = dayNumber(yearOf(day) - years, month, month === 2 && date === 29 ? 28 : date);
  return anniversary - r.int(0, 364);
}

/** The last day any generated record refers to. */
export const LATEST = dayNumber(2025, 12, 31);
/** The first day anyone in a generated record was born. */
export const EARLIEST_BIRTH = dayNumber(1900, 1, 1);
