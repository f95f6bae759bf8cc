/**
 * The messages between the embedded database's driver (pglite-driver.ts, on
 * the event loop's thread) and the thread that owns PGlite (pglite-thread.ts).
 * Each request carries an id its reply repeats; statements of a transaction
 * carry the transaction's id.
 */
import type { AuditEntry } from '../audit/chain.ts';
import type { AuditTrailOptions } from '../audit/trail.ts';

export type Request =
  | {
      readonly id: number;
      readonly op: 'query';
      readonly sql: string;
      readonly params: readonly unknown[];
      readonly tx?: number;
      /** Keep the statement prepared: QueryOptions.prepare. */
      readonly prepare?: boolean;
    }
  | { readonly id: number; readonly op: 'exec'; readonly sql: string }
  /** Opens transaction `tx`; never answered: if it cannot start, its statements and its end fail. */
  | { readonly op: 'begin'; readonly tx: number }
  | { readonly id: number; readonly op: 'end'; readonly tx: number; readonly commit: boolean }
  /** Entries for audit trail `trail` (one per AuditTrail made on the main thread), answered once committed. */
  | { readonly id: number; readonly op: 'audit'; readonly trail: number; readonly options: AuditTrailOptions; readonly entries: readonly AuditEntry[] }
  | { readonly id: number; readonly op: 'close' };

export type Reply = { readonly id: number; readonly rows?: unknown[]; readonly error?: WireError };

/** What the thread says once PGlite is open, or why it could not open it. */
export type Ready = { readonly ready: true } | { readonly ready: false; readonly error: WireError };

/**
 * An error as it crosses threads. Structured cloning keeps only an Error's message and stack, but
 * callers read PostgreSQL's fields (`code`, `severity`, `detail`, …) and `name`: they travel as data.
 */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  /** Set when it was PGlite's DatabaseError (a PostgreSQL error), rebuilt as one on arrival. */
  readonly database: boolean;
  readonly fields: Record<string, unknown>;
}

export function toWire(error: unknown, isDatabaseError: (error: unknown) => boolean): WireError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), database: false, fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    // Functions cannot be cloned; a query's options may hold some (serializers, parsers).
    if (key !== 'name' && typeof value !== 'function' && !(key === 'queryOptions' && value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, stack: error.stack, database: isDatabaseError(error), fields };
}

export function fromWire(wire: WireError, DatabaseError: new (message: string, length: number, name: string) => Error): Error {
  const error = wire.database ? new DatabaseError(wire.message, Number(wire.fields.length ?? 0), wire.name) : new Error(wire.message);
  Object.assign(error, wire.fields);
  // `name` is an own property of a DatabaseError ('error', the message type), a prototype's otherwise.
  if (error.name !== wire.name) Object.defineProperty(error, 'name', { value: wire.name, writable: true, configurable: true });
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}
