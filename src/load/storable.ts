/**
 * What a record may hold that its description allows but the database would
 * refuse, failing a whole batch: an id beyond bigint and JavaScript's exact
 * integers, and strings with NUL characters or lone surrogates (records are
 * stored as json text, and compared as jsonb when a load changes one).
 */
import type { StoredRecord } from '../model/records.ts';
import type { RecordType } from './conversion.ts';

/**
 * Characters PostgreSQL cannot hold as given: NUL, which it refuses, and lone surrogates (halves of a pair),
 * which reach it as U+FFFD.
 */
const UNSTORABLE_CHARACTERS = String.raw`\u0000\p{Cs}`;

/** Text holding a character PostgreSQL cannot hold. */
export const UNSTORABLE_TEXT = new RegExp(`[${UNSTORABLE_CHARACTERS}]`, 'u');

/**
 * The same rule as a JSON Schema `pattern` (read with the `u` flag, as Ajv and
 * ECMA-262 patterns are): text with none of those characters. For parameters
 * that reach a query, so such text is refused as bad input, not by the database.
 */
export const STORABLE_TEXT_PATTERN = `^[^${UNSTORABLE_CHARACTERS}]*$`;

function unstorable(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE_TEXT.test(value);
  if (typeof value !== 'object' || value === null) return false;
  for (const [key, item] of Object.entries(value)) if (UNSTORABLE_TEXT.test(key) || unstorable(item)) return true;
  return false;
}

/** Whether JSON text may hold such strings: they can only come from \u escapes, as text is decoded as UTF-8. */
export const mayHoldEscapes = (json: string) => json.includes('\\u');

/** The record an entry holds, as its type checks it and as the database can hold it. */
export function storableRecord(type: RecordType, entry: unknown, escapes: boolean): StoredRecord | { reason: string } {
  const stored = type.toStored(entry);
  if ('reason' in stored) return stored;
  const reason = unstorableReason(stored, escapes);
  return reason ? { reason } : stored;
}

/** Why a checked record cannot be stored, if it cannot; its strings are walked only if `escapes`. */
function unstorableReason(
  record: { readonly id: number; readonly data: unknown },
  escapes: boolean,
): string | undefined {
  if (!Number.isSafeInteger(record.id)) return `/id: ${record.id} is beyond the largest id this service can hold`;
  if (escapes && unstorable(record.data)) {
    return 'a string holds a NUL character (\\u0000) or half a surrogate pair, which PostgreSQL cannot store';
  }
  return undefined;
}
