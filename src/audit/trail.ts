/**
 * Writes audit entries with group commit: the requests read in one turn of
 * the event loop, and those that arrive while a write is in flight, are
 * committed together in the next transaction, so the trail does not cap
 * throughput, yet each request still waits until its own entry is durably
 * committed before any data is sent.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SqlDriver } from '../store/driver.ts';
import type { AuditEntry, AuditTrail } from '../types/audit.ts';
import { createChainWriter } from './chain-writer.ts';

export interface AuditTrailOptions {
  /** The most entries one transaction appends. */
  readonly maxBatch?: number;
  /** The writer's name, whose chain its entries extend: by default a new one (chain-writer.ts). */
  readonly writer?: string;
}

interface Pending {
  readonly entry: AuditEntry;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gives `write` the entries recorded in each turn of the event loop, at most `maxBatch` at a time,
 * one write at a time: the entries that arrive meanwhile wait for the next (group commit).
 */
export function batchPerTurn(
  write: (entries: readonly AuditEntry[]) => Promise<void>,
  { maxBatch = 1000 }: AuditTrailOptions = {},
): AuditTrail {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;

  const writeBatch = async (batch: readonly Pending[]) => {
    try {
      await write(batch.map((pending) => pending.entry));
      for (const pending of batch) pending.resolve();
    } catch (error) {
      for (const pending of batch) pending.reject(error);
    }
  };

  const drain = async () => {
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      await writeBatch(batch);
    }
    writing = undefined;
  };

  return {
    record(entry) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        // Written from the event loop's next turn, so that every request read in this turn joins the batch.
        writing ??= nextTurn().then(drain);
      });
    },
    async flush() {
      while (writing) await writing;
    },
  };
}

/** The trail in the audit table of a PostgreSQL database. */
export const postgresAuditTrail = (driver: SqlDriver, options: AuditTrailOptions = {}): AuditTrail =>
  batchPerTurn(createChainWriter(driver, options.writer), options);
