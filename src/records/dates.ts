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
