/**
 * The hash chain over audit entries: each entry's hash covers its content and
 * the previous entry's hash, so removing or altering any entry breaks every
 * hash after it. Writer and verifier share this one definition.
 */
import * as crypto from 'node:crypto';
import type { AuditEntry } from '../types/audit.ts';

export const GENESIS_HASH = '0'.repeat(64);

/** SQL for an entry's `at` as the text its hash covers. */
export const AT_ISO = `to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

// One-shot where Node has it (20.12): the digest of the same text, in a third of the time.
const sha256: (text: string) => string = crypto.hash
  ? (text) => crypto.hash('sha256', text, 'hex')
  : (text) => crypto.createHash('sha256').update(text).digest('hex');

export function chainHash(previousHash: string, at: string, entry: AuditEntry): string {
  const content = JSON.stringify([
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
  ]);
  return sha256(`${previousHash}\n${content}`);
}
