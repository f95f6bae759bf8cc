/**
 * The embedded store's audit trail: entries chained as in PostgreSQL, the
 * latest kept in memory for the audit report (a bounded number, so a
 * long-running mock does not grow), and every one appended to the audit
 * file when one is configured (file/), which `lev-api audit verify
 * --file` checks.
 */
import type {
  ActivityReport,
  AuditEntry,
  AuditReport,
  AuditTrail,
  ChainedEntry,
  Checkpoint,
  EntriesPage,
} from '../model/audit.ts';
import { recordAccessesOf, userActivityOf, userEntriesOf } from './activity.ts';
import { type AuditFileOptions, openAuditFile } from './file/writer.ts';
import { GENESIS_HASH, chainHash } from './chain.ts';
import { type CheckpointSigner, checkpointBody } from './checkpoint.ts';
import { batchPerTurn } from './trail.ts';

interface MemoryTrailOptions {
  /** Entries kept in memory for the report: the latest. */
  readonly keep: number;
  readonly file?: AuditFileOptions;
}

export interface MemoryTrail extends AuditTrail, AuditReport {
  /** Chains and writes entries stamped `at` (ISO 8601), by default now. */
  append(entries: readonly AuditEntry[], at?: string): Promise<void>;
  /** The entries kept in memory, oldest first. */
  kept(): readonly ChainedEntry[];
  /**
   * Signs and keeps a checkpoint of the chain (the entries this trail appended and its head), unless it has
   * not grown since the last.
   */
  checkpoint(signer: CheckpointSigner): Checkpoint | undefined;
  /**
   * Where a torn last line of the audit file (a write cut short, never acknowledged) was moved at start, for
   * the operator to be told.
   */
  readonly tornTailSetAside: string | undefined;
  close(): Promise<void>;
}

export async function openMemoryTrail({ keep, file: fileOptions }: MemoryTrailOptions): Promise<MemoryTrail> {
  const file = fileOptions ? await openAuditFile(fileOptions) : undefined;
  // Where this trail's chain starts: a restarted service continues its file's.
  const origin = file?.head ?? GENESIS_HASH;
  let head = origin;
  let appended = 0;
  let kept: ChainedEntry[] = [];
  let checkpoints: Checkpoint[] = [];

  const append = async (entries: readonly AuditEntry[], at = new Date().toISOString()) => {
    let previous = head;
    const chained = entries.map((entry) => {
      const hash = chainHash(previous, at, entry);
      previous = hash;
      return { at, ...entry, hash };
    });
    // Written to the file first: an entry the file refused is not in the chain.
    const before = head;
    try {
      // Not awaited without a file: a promise fewer a batch.
      if (file) await file.append(chained);
    } finally {
      // The chain goes on from what the file holds, even when recording its head beside it failed after the
      // entries were written.
      head = file ? file.head : previous;
      if (head !== before) appended += chained.length;
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
    async recordAccesses(filter): Promise<EntriesPage> {
      return recordAccessesOf(latest(), filter);
    },
    checkpoint(signer) {
      // One writer, the process: its chain runs from the origin (the file's end when it opened).
      const heads = appended ? [{ writer: 'embedded', seq: appended, hash: head }] : [];
      if (checkpoints.length && checkpoints[checkpoints.length - 1].entries === appended) return undefined;
      const checkpoint = signer.sign(
        checkpointBody(new Date().toISOString(), { head: origin, entries: 0 }, heads, checkpoints.at(-1)?.hash),
      );
      checkpoints.push(checkpoint);
      // As bounded as the entries kept: the latest, a tenth over at most.
      if (checkpoints.length > keep + Math.ceil(keep / 10)) checkpoints = checkpoints.slice(checkpoints.length - keep);
      return checkpoint;
    },
    async checkpoints(limit) {
      return checkpoints.slice(-limit).reverse();
    },
    async close() {
      await trail.flush();
      await file?.close();
    },
  };
}
