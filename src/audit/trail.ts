/**
 * Writes audit entries with group commit: the requests read in one turn of
 * the event loop, and those that arrive while a write is in flight, are
 * committed together in the next transaction, so the trail does not cap
 * throughput, yet each request still waits until its own entry is durably
 * committed before any data is sent.
 */
import type { SqlDriver } from '../store/driver.ts';
import type { AuditEntry, AuditTrail } from '../model/audit.ts';
import { createChainWriter } from './chain-writer.ts';

interface AuditTrailOptions {
  /** The most entries one transaction appends. */
  readonly maxBatch?: number;
  /**
   * How long (ms) a group may wait, at most, for the accesses begun (`expect`) and not yet recorded
   * to join it; 0 for no wait. A commit costs about as much CPU as a dozen entries in it, so on a
   * busy process a group a little later but several times larger costs less than the groups it
   * replaces; when no access is in progress the group goes at once.
   */
  readonly lingerMs?: number;
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
  { maxBatch = 1000, lingerMs = 0 }: AuditTrailOptions = {},
): AuditTrail {
  let queue: Pending[] = [];
  let writing: Promise<void> | undefined;
  // Accesses begun and not yet recorded (or ended), and the group waiting for them, if any.
  let inProgress = 0;
  let joined: (() => void) | undefined;
  const lingering = () => inProgress > 0 && queue.length < maxBatch;
  const settle = () => {
    if (joined && !lingering()) joined();
  };
  /** Until every access begun has joined the queue (or ended), or `lingerMs` has passed. */
  const linger = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => joined?.(), lingerMs);
      joined = () => {
        joined = undefined;
        clearTimeout(timer);
        resolve();
      };
    });

  const drain = async () => {
    while (queue.length) {
      if (lingerMs > 0 && lingering()) await linger();
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        await write(batch.map((pending) => pending.entry));
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    writing = undefined;
  };
  // Written from the event loop's next turn, so that every request read in this turn joins the batch.
  const drainNextTurn = () => new Promise<void>((resolve) => setImmediate(() => resolve(drain())));

  return {
    record(entry) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        writing ??= drainNextTurn();
        settle();
      });
    },
    expect() {
      inProgress++;
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        inProgress--;
        settle();
      };
    },
    async flush() {
      while (writing) await writing;
    },
  };
}

/** How long a PostgreSQL group waits, at most, for the accesses in progress to join it. */
const POSTGRES_LINGER_MS = 2;

/** The trail in the audit table of a PostgreSQL database. */
export const postgresAuditTrail = (driver: SqlDriver, options: AuditTrailOptions = {}): AuditTrail =>
  batchPerTurn(createChainWriter(driver, options.writer), { lingerMs: POSTGRES_LINGER_MS, ...options });
