const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * What JSON Schema's `format: date` (RFC 3339) does not say of isIsoDate's days, for the parameter
 * schemas: the year 0000 is not one.
 */
export const ISO_DATE_PATTERN = '^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}$';

/** A real calendar day written as YYYY-MM-DD (no time, no spaces, year 0001 to 9999). */
export function isIsoDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|([+-])(\d{2}):(\d{2})))?$/;

/** Written as isoInstant reads, whether or not the day and time are real ones. */
export const isoInstantShaped = (value: string) => ISO_INSTANT.test(value);

/** The instants isoInstant names, in words: those of the years 0001 to 9999, UTC. */
export const INSTANT_RANGE = 'from 0001-01-01 to 9999-12-31T23:59:59Z';
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The instant an ISO 8601 date (`2026-11-20`, its midnight UTC) or time with its zone
 * (`2026-11-20T09:00Z`, `2026-11-20T09:00:00.5+01:00`) names, its day checked by isIsoDate and its
 * time by the clock's ranges; undefined for anything else. `Date` alone reads `2026-02-30` as 2
 * March, so every date a command or parameter takes is read through this. A leap second (`:60`),
 * a real time that Date cannot hold, starts where the next second does. An instant outside the
 * years 0001 to 9999 UTC (`9999-12-31T23:59:60Z`, `9999-12-31T23:59:59-23:59`) is undefined too:
 * written with four-digit years it compares as the text it is, which PostgreSQL and the memory
 * store would each read their own way.
 */
export function isoInstant(value: string): Date | undefined {
  const match = ISO_INSTANT.exec(value);
  if (!match || !isIsoDate(match[1])) return undefined;
  const [, day, hours = '00', minutes = '00', seconds = '00', fraction = '', zone = 'Z', sign, zoneHours, zoneMinutes] =
    match;
  if (Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 60) return undefined;
  if (sign && (Number(zoneHours) > 23 || Number(zoneMinutes) > 59)) return undefined;
  const leap = seconds === '60';
  const time = new Date(
    `${day}T${hours}:${minutes}:${leap ? '59' : seconds}${leap ? '' : fraction.slice(0, 4)}${zone}`,
  );
  const ms = time.getTime() + (leap ? 1000 : 0);
  if (Number.isNaN(ms) || ms < FIRST_INSTANT || ms > LAST_INSTANT) return undefined;
  return new Date(ms);
}
