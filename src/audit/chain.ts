/**
 * The hash chain over audit entries: each entry's hash covers its content and
 * the previous entry's hash, so removing or altering any entry breaks every
 * hash after it. Writers and verifiers of both stores share this one
 * definition.
 *
 * In PostgreSQL each writer (a process's trail) extends a chain of its own,
 * so writers never wait for each other; every writer's chain starts from the
 * hash that ended the single chain written before writers had chains of their
 * own (the origin), so that chain continues into theirs, and signed
 * checkpoints (checkpoint.ts) bind every writer's head together.
 */
import { sha256 } from '../digest.ts';
import type { AuditEntry, RecordRef } from '../model/audit.ts';

export const GENESIS_HASH = '0'.repeat(64);

/** SQL for an entry's `at` as the text its hash covers. */
export const AT_ISO = `to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export function chainHash(previousHash: string, at: string, entry: AuditEntry): string {
  const content: unknown[] = [
    at,
    entry.username,
    entry.client,
    entry.groups,
    entry.dataset,
    entry.operation,
    entry.path,
    entry.query,
    entry.results,
    entry.requestId,
  ];
  // Only when there are any: entries written before records were named keep the hashes they had.
  if (entry.records?.length) content.push(entry.records.map((ref) => [ref.type, ref.id]));
  // A change-feed answer's events and fields: an object, so it cannot be read as the records' array.
  if (entry.events?.length || entry.fields?.length)
    content.push({ events: entry.events ?? [], fields: entry.fields ?? [] });
  return sha256(`${previousHash}\n${JSON.stringify(content)}`);
}

/**
 * The hash a writer's first entry is chained to: the writer's name bound to the origin, the end of the chain
 * before writers.
 */
export const writerStart = (writer: string, origin: string): string =>
  sha256(`${origin}\nwriter ${JSON.stringify(writer)}`);

/** A record as the audit table's `records` column and its index hold it: `type:id`. */
export const recordKey = (ref: RecordRef): string => `${ref.type}:${ref.id}`;

export function recordOfKey(key: string): RecordRef {
  const at = key.lastIndexOf(':');
  return { type: key.slice(0, at), id: Number(key.slice(at + 1)) };
}
