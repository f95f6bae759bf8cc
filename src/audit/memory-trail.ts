/**
 * The embedded store's audit trail: entries chained as in PostgreSQL, the
 * latest kept in memory for the audit report (a bounded number, so a
 * long-running mock does not grow), and every one appended to the audit
 * file when one is configured (audit-file.ts), which `lev-api audit verify
 * --file` checks.
 */
import type { ActivityReport, AuditEntry, AuditReport, AuditTrail, ChainedEntry, EntriesPage } from '../types/audit.ts';
import { userActivityOf, userEntriesOf } from './activity.ts';
import { type AuditFileOptions, openAuditFile } from './audit-file.ts';
import { GENESIS_HASH, chainHash } from './chain.ts';
import { batchPerTurn } from './trail.ts';

export interface MemoryTrailOptions {
  /** Entries kept in memory for the report: the latest. */
  readonly keep: number;
  readonly file?: AuditFileOptions;
}

export interface MemoryTrail extends AuditTrail, AuditReport {
  /** Chains and writes entries stamped `at` (ISO 8601), by default now. */
  append(entries: readonly AuditEntry[], at?: string): Promise<void>;
  /** The entries kept in memory, oldest first. */
  kept(): readonly ChainedEntry[];
  /** Where a torn last line of the audit file (a write cut short, never acknowledged) was moved at start, for the operator to be told. */
  readonly tornTailSetAside: string | undefined;
  close(): Promise<void>;
}

export async function openMemoryTrail({ keep, file: fileOptions }: MemoryTrailOptions): Promise<MemoryTrail> {
  const file = fileOptions ? await openAuditFile(fileOptions) : undefined;
  let head = file?.head ?? GENESIS_HASH;
  let kept: ChainedEntry[] = [];

  const append = async (entries: readonly AuditEntry[], at = new Date().toISOString()) => {
    let previous = head;
    const chained = entries.map((entry) => {
      const hash = chainHash(previous, at, entry);
      previous = hash;
      return { at, ...entry, hash };
    });
    // Written to the file first: an entry the file refused is not in the chain.
    try {
      await file?.append(chained);
    } finally {
      // The chain goes on from what the file holds, even when recording its head beside it failed after the entries were written.
      head = file ? file.head : previous;
    }
    kept.push(...chained);
    // Trimmed a tenth at a time rather than an entry at a time.
    if (kept.length > keep + Math.ceil(keep / 10)) kept = kept.slice(kept.length - keep);
  };
  const trail = batchPerTurn((entries) => append(entries));
  // `kept` runs up to a tenth over `keep` between trims; what counts is the latest `keep`.
  const latest = () => (kept.length > keep ? kept.slice(kept.length - keep) : kept);

  return {
    ...trail,
    append,
    kept: latest,
    tornTailSetAside: file?.setAside,
    async userActivity(filter): Promise<ActivityReport> {
      return userActivityOf(latest(), filter);
    },
    async entries(filter): Promise<EntriesPage> {
      return userEntriesOf(latest(), filter);
    },
    async close() {
      await trail.flush();
      await file?.close();
    },
  };
}
