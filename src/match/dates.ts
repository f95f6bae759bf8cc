/**
 * How a date given in a query compares with a registered one, both YYYY-MM-DD, at the date's levels
 * (vocabulary.ts): the same day, the day and month exchanged (03/04 written for 04/03), near (a few
 * days apart, or a digit of the month or day mistyped), a digit of the year out, two digits out,
 * within a month, or different.
 */
import type { MatchKind } from './vocabulary.ts';

/** Days apart that still count as near. */
export const NEAR_DAYS = 3;

/**
 * A date's day number: days since 0000-03-01 of the proleptic Gregorian calendar, worked out with
 * arithmetic (H. Hinnant's days_from_civil), 0 to 3,652,425 for the years 0001 to 9999.
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
}

/** The day number of a YYYY-MM-DD date. */
export const dayNumber = (date: string): number =>
  daysFromCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));

/** The year, month and day of a day number (days_from_civil's inverse). */
function civilFromDays(days: number): [number, number, number] {
  const era = Math.floor(days / 146_097);
  const dayOfEra = days - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A date moved by a number of days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = civilFromDays(dayNumber(date) + days);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** Days apart that are still within a month. */
const WITHIN_MONTH_DAYS = 31;

const digit = (date: string, at: number) => date.charCodeAt(at) - 48;
/**
 * The day number of a YYYY-MM-DD date read digit by digit: compared for every candidate, so nothing is cut or
 * allocated.
 */
const dayOf = (date: string) =>
  daysFromCivil(
    digit(date, 0) * 1000 + digit(date, 1) * 100 + digit(date, 2) * 10 + digit(date, 3),
    digit(date, 5) * 10 + digit(date, 6),
    digit(date, 8) * 10 + digit(date, 9),
  );

/**
 * The level a query's date compares at with a registered one: the same; the day and month
 * exchanged; near (within 3 days, or a digit of the month or day out); the day and month the same
 * with a digit of the year out; two digits out; within a month; or different.
 */
export function compareDate(query: string, stored: string): MatchKind {
  if (query === stored) return 'exact';
  const c = (text: string, at: number) => text.charCodeAt(at);
  if (
    c(query, 0) === c(stored, 0) &&
    c(query, 1) === c(stored, 1) &&
    c(query, 2) === c(stored, 2) &&
    c(query, 3) === c(stored, 3) &&
    c(query, 5) === c(stored, 8) &&
    c(query, 6) === c(stored, 9) &&
    c(query, 8) === c(stored, 5) &&
    c(query, 9) === c(stored, 6)
  )
    return 'day-month-swapped';
  const apart = Math.abs(dayOf(stored) - dayOf(query));
  if (apart <= NEAR_DAYS) return 'near-date';
  // The places the two texts differ at: how many, and the first two.
  let differ = 0;
  let first = -1;
  let second = -1;
  for (let i = 0; i < 10; i++) {
    if (c(query, i) === c(stored, i)) continue;
    if (differ === 0) first = i;
    else if (differ === 1) second = i;
    differ++;
  }
  // One digit different, or two neighbouring digits exchanged within one of the year, month or day.
  const oneDigitOff =
    differ === 1 ||
    (differ === 2 &&
      second === first + 1 &&
      c(query, first) === c(stored, second) &&
      c(query, second) === c(stored, first));
  if (oneDigitOff) return first < 4 ? 'year-digit' : 'near-date';
  if (differ === 2) return 'two-digits';
  if (apart <= WITHIN_MONTH_DAYS) return 'within-month';
  return 'different';
}
