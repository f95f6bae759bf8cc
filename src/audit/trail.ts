/**
 * Writes audit entries with group commit: the requests read in one turn of
 * the event loop, and those that arrive while a write is in flight, are
 * committed together in the next transaction, so the trail does not cap
 * throughput, yet each request still waits until its own entry is durably
 * committed before any data is sent.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SqlDriver } from '../store/driver.ts';
import type { AuditEntry } from './chain.ts';
import { createChainWriter } from './chain-writer.ts';

export interface AuditTrail {
  /** Resolves once the entry is committed; rejects if it could not be. */
  record(entry: AuditEntry): Promise<void>;
  /** Waits for queued entries to be written. */
  flush(): Promise<void>;
}

export interface AuditTrailOptions {
  /** The most entries one transaction appends. */
  readonly maxBatch?: number;
}

/**
 * A database that runs audit trails on a thread of its own, next to it (the embedded store,
 * pglite-driver.ts): the entries' hashes and the transactions then cost the event loop's thread
 * one message a turn, where a trail over its SQL would take three for every batch.
 */
export interface AuditTrailHost {
  hostAuditTrail(options: AuditTrailOptions): AuditTrail;
}

const hostsTrails = (driver: SqlDriver): driver is SqlDriver & AuditTrailHost =>
  typeof (driver as Partial<AuditTrailHost>).hostAuditTrail === 'function';

interface Pending {
  readonly entry: AuditEntry;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Gives `write` the entries recorded in each turn of the event loop, at most `maxBatch` at a time.
 * With `overlap`, a turn's entries are written at once, the writer queueing them itself; without,
 * one write at a time, and the entries that arrive meanwhile wait for the next (group commit).
 */
export function batchPerTurn(
  write: (entries: readonly AuditEntry[]) => Promise<void>,
  { maxBatch = 1000, overlap = false }: AuditTrailOptions & { readonly overlap?: boolean } = {},
): AuditTrail {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;
  const inFlight = new Set<Promise<void>>();

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
      if (!overlap) {
        await writeBatch(batch);
        continue;
      }
      const written = writeBatch(batch);
      inFlight.add(written);
      void written.then(() => inFlight.delete(written));
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
      while (writing || inFlight.size) await (writing ?? Promise.all(inFlight));
    },
  };
}

export function createAuditTrail(driver: SqlDriver, options: AuditTrailOptions = {}): AuditTrail {
  return hostsTrails(driver) ? driver.hostAuditTrail(options) : batchPerTurn(createChainWriter(driver), options);
}
