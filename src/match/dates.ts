/**
 * How a date given in a query compares with a registered one, both YYYY-MM-DD: the same day, the
 * day and month exchanged (03/04 written for 04/03), or near (a few days apart, or one digit
 * mistyped: one digit different, or two neighbouring digits exchanged).
 */
import { isIsoDate } from '../records/dates.ts';
import type { MatchKind } from './vocabulary.ts';

/** Days apart that still count as near. */
export const NEAR_DAYS = 3;

const DAY_MS = 86_400_000;

const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;

/** The days from one date to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string) => dayNumber(to) - dayNumber(from);

/** A date moved by a number of days. */
export function addDays(date: string, days: number): string {
  const moved = new Date((dayNumber(date) + days) * DAY_MS);
  return moved.toISOString().slice(0, 10);
}

/** One digit different, or two neighbouring digits exchanged, within one of the year, month or day. */
function oneDigitOff(a: string, b: string): boolean {
  const differ: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ.push(i);
  if (differ.length === 1) return true;
  return differ.length === 2 && differ[1] === differ[0] + 1 && a[differ[0]] === b[differ[1]] && a[differ[1]] === b[differ[0]] && a[differ[0] + 1] !== '-';
}

export function compareDate(query: string, stored: string): MatchKind {
  if (query === stored) return 'exact';
  const [year, month, day] = [query.slice(0, 4), query.slice(5, 7), query.slice(8, 10)];
  if (year === stored.slice(0, 4) && month === stored.slice(8, 10) && day === stored.slice(5, 7)) return 'day-month-swapped';
  if (Math.abs(daysBetween(query, stored)) <= NEAR_DAYS || oneDigitOff(query, stored)) return 'near-date';
  return 'different';
}

// Digits a mistyped date may differ in: the decade and year, the month, the day.
const TYPED_DIGITS = [2, 3, 5, 6, 8, 9];

/**
 * The real dates a query's date may stand for, itself first: the days near it, the day and month
 * exchanged, and each date one digit away (a digit different, or two neighbouring ones exchanged).
 * What `compareDate` calls anything but different, as far as a key can ask for it.
 */
export function dateVariants(date: string): string[] {
  const found = new Set<string>([date]);
  for (let days = 1; days <= NEAR_DAYS; days++) {
    found.add(addDays(date, -days));
    found.add(addDays(date, days));
  }
  found.add(`${date.slice(0, 4)}-${date.slice(8, 10)}-${date.slice(5, 7)}`);
  for (const at of TYPED_DIGITS) {
    for (let digit = 0; digit <= 9; digit++) found.add(date.slice(0, at) + digit + date.slice(at + 1));
    if (TYPED_DIGITS.includes(at + 1)) found.add(date.slice(0, at) + date[at + 1] + date[at] + date.slice(at + 2));
  }
  return [...found].filter(isIsoDate);
}
