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
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  return era * 146_097 + yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
}

/** The day number of a YYYY-MM-DD date. */
export const dayNumber = (date: string): number => daysFromCivil(Number(date.slice(0, 4)), Number(date.slice(5, 7)), Number(date.slice(8, 10)));

/** The year, month and day of a day number (days_from_civil's inverse). */
function civilFromDays(days: number): [number, number, number] {
  const era = Math.floor(days / 146_097);
  const dayOfEra = days - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shifted = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1;
  const month = shifted < 10 ? shifted + 3 : shifted - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/** The year of a day number. */
export const yearOfDay = (days: number): number => civilFromDays(days)[0];

/** The days from one date to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A date moved by a number of days. */
export function addDays(date: string, days: number): string {
  const [year, month, day] = civilFromDays(dayNumber(date) + days);
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

const MIN_DAY = daysFromCivil(1, 1, 1);
const MAX_DAY = daysFromCivil(9999, 12, 31);
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** A real day of the years 0001 to 9999 (isIsoDate's rule, for dates as numbers). */
const isDay = (year: number, month: number, day: number) =>
  year >= 1 && year <= 9999 && month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap(year) ? 29 : MONTH_DAYS[month - 1]);

/** The places two dates' texts differ at. */
function differing(a: string, b: string): number[] {
  const differ: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ.push(i);
  return differ;
}

/** One digit different, or two neighbouring digits exchanged, within one of the year, month or day. */
function oneDigitOff(a: string, b: string, differ: readonly number[]): boolean {
  if (differ.length === 1) return true;
  return differ.length === 2 && differ[1] === differ[0] + 1 && a[differ[0]] === b[differ[1]] && a[differ[1]] === b[differ[0]] && a[differ[0] + 1] !== '-';
}

/** Days apart that are still within a month. */
export const WITHIN_MONTH_DAYS = 31;

/**
 * The level a query's date compares at with a registered one: the same; the day and month
 * exchanged; near (within 3 days, or a digit of the month or day out); the day and month the same
 * with a digit of the year out; two digits out; within a month; or different.
 */
export function compareDate(query: string, stored: string): MatchKind {
  if (query === stored) return 'exact';
  const [year, month, day] = [query.slice(0, 4), query.slice(5, 7), query.slice(8, 10)];
  if (year === stored.slice(0, 4) && month === stored.slice(8, 10) && day === stored.slice(5, 7)) return 'day-month-swapped';
  const apart = Math.abs(daysBetween(query, stored));
  const differ = differing(query, stored);
  if (apart <= NEAR_DAYS) return 'near-date';
  if (oneDigitOff(query, stored, differ)) return differ[0] < 4 ? 'year-digit' : 'near-date';
  if (differ.length === 2) return 'two-digits';
  if (apart <= WITHIN_MONTH_DAYS) return 'within-month';
  return 'different';
}
