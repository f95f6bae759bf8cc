/**
 * Records as stores hold them: shared by what reads data (parsing, the
 * mock), what stores it (the backends) and what serves it (the routes).
 */

/** One way a record can be found: a date and a person's normalised names. */
export interface SearchKey {
  readonly date: string;
  readonly surname: string;
  readonly forenames: string;
}

/**
 * A record as verification compares it: the values at the dot paths its type's verification reads
 * (`verifiedPaths` in records/verification.ts), in that order; null where the record has none.
 */
export type VerifiedValues = readonly unknown[];

/**
 * What the register says of a close-match query (counted by the store as records are written): how
 * many registrations of the type it holds, and how many have the query's surname and first forename.
 */
export interface RegisterCounts {
  readonly records: number;
  readonly surname: number;
  readonly forename: number;
}

/**
 * A close match's candidates as the stores answer them (RecordReader.suggestionCandidates): each
 * distinct date and name of their search keys once, and each key three numbers naming them, so
 * that a query compares each distinct string once (match/candidates.ts writes and reads them).
 */
export interface SuggestionCandidates {
  /** The candidates' ids, ascending. */
  readonly ids: readonly number[];
  /** Candidate i's keys are keys `starts[i]` to `starts[i + 1]` (one more entry than `ids`). */
  readonly starts: Int32Array;
  /** Each key's date, surname and forenames, side by side: numbers of `strings`. */
  readonly keys: Int32Array;
  /** The dates (YYYY-MM-DD) and names (normalised) the keys name, each once. */
  readonly strings: readonly string[];
  /** A blocking pass found more records than its cap. */
  readonly truncated: boolean;
}

/** A checked record with its search keys. */
export interface StoredRecord {
  readonly id: number;
  readonly data: unknown;
  readonly keys: readonly SearchKey[];
}

/** A record ready to write: its data already as JSON, so a batch holds strings rather than object trees. */
export interface RecordToWrite {
  readonly id: number;
  /** The record's data as compact JSON (which never holds a raw line break or tab). */
  readonly json: string;
  readonly keys: readonly SearchKey[];
}

/** What a write did: each record given was inserted, updated (its data or search keys changed) or left unchanged. */
export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}
