/**
 * The audit report's drill-down as the page shows it: one row an access, what was asked read
 * back from the address the caller sent, so the auditor reads names and dates, not percent-encoding.
 */
import type { AuditEntry } from '@lev-api/client';
import { longDate } from './dates.ts';

/** As many as the API gives at once: an auditor reading one person's day should see all of it. */
export const ENTRIES_SHOWN = 1000;

interface EntryRow {
  /** HH:MM:SS, UTC. */
  readonly time: string;
  readonly operation: string;
  readonly dataset: string;
  readonly asked: readonly { readonly name: string; readonly value: string }[];
  readonly results: string;
}

const OPERATIONS: Record<string, string> = {
  lookup: 'Lookup',
  search: 'Search',
  verify: 'Certificate check',
  suggest: 'Close matches',
  events: 'Change feed',
  'audit-read': 'Audit trail read',
};

/** An operation as the pages name it. */
const operationName = (operation: string) => OPERATIONS[operation] ?? operation;

/**
 * The page's rows. A lookup asked by its path, whose last segment is the system number on every
 * lookup route; searches and checks by their query, decoded as the API decoded it. A check's
 * `results` is whether it matched, not a count.
 */
export function entryRows(entries: readonly AuditEntry[], nounOf: (dataset: string) => string): EntryRow[] {
  return entries.map((entry) => ({
    time: entry.at.slice(11, 19),
    operation: operationName(entry.operation),
    dataset: nounOf(entry.dataset),
    asked:
      entry.operation === 'lookup'
        ? [{ name: 'system number', value: entry.path.slice(entry.path.lastIndexOf('/') + 1) }]
        : [...new URLSearchParams(entry.query)].map(([name, value]) => ({ name, value })),
    results: entry.operation === 'verify' ? (entry.results ? 'matched' : 'did not match') : String(entry.results),
  }));
}

/** One access to a registration, as the "who has seen this record" page shows it. */
interface AccessRow {
  /** YYYY-MM-DD, UTC. */
  readonly day: string;
  /** HH:MM:SS, UTC. */
  readonly time: string;
  readonly user: string;
  readonly client: string;
  readonly operation: string;
}

export const accessRows = (entries: readonly AuditEntry[]): AccessRow[] =>
  entries.map((entry) => ({
    day: longDate(entry.at.slice(0, 10)),
    time: entry.at.slice(11, 19),
    user: entry.username,
    client: entry.client,
    operation: operationName(entry.operation),
  }));
