/**
 * The read replicas and which of them may answer now. Every `intervalMs` the primary's WAL
 * position is sampled, then each replica's replay position and the change feed's last position
 * it holds; a replica is in rotation while it answered its last probe and is no older than
 * `maxLagMs`. Measured on an interval, not per request: a request costs a comparison.
 *
 * Lag is measured by LSN, not by `pg_last_xact_replay_timestamp()` (which stands still, and so
 * seems to grow, while the primary writes nothing): a replica that has replayed the primary's
 * position sampled at time T holds everything committed before T, so it is at most `now - T`
 * behind. That bound only grows between probes, so a replica leaves rotation on time even when a
 * probe is late.
 */
import type { FallbackCounts, ReplicaState } from '../model/store.ts';
import type { SqlDriver } from './driver.ts';

interface ReplicaSetOptions {
  /** The most a replica may be behind the primary and still answer. */
  readonly maxLagMs: number;
  /** How often the replicas are probed. */
  readonly intervalMs: number;
  /** A probe not answered within this is a replica down. */
  readonly probeTimeoutMs?: number;
}

export interface ReplicaSet {
  /**
   * The replica to read from next, in turn: in rotation, and holding the change feed's position
   * `atLeast` when given. Undefined when none is: the primary reads.
   */
  next(atLeast?: number): SqlDriver | undefined;
  /** A read on `replica` failed: it is out of rotation until a probe finds it answering again. */
  failed(replica: SqlDriver): void;
  readonly fallbacks: FallbackCounts;
  states(): readonly ReplicaState[];
  /** Probes every replica now (the interval does it otherwise). */
  probe(): Promise<void>;
  /** Stops probing and closes the replicas' pools. */
  close(): Promise<void>;
}

/** `X/Y` (two hexadecimal halves), as PostgreSQL writes a WAL position, as a number of bytes. */
function lsnBytes(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

interface Replica {
  readonly name: string;
  readonly driver: SqlDriver;
  up: boolean;
  /** The latest primary sample it had replayed at its last probe: it holds all committed before this time. */
  freshAsOf: number | undefined;
  /** The change feed's last position it held at its last probe. */
  position: number;
  probing: boolean;
}

const withTimeout = <T>(work: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });

/**
 * The replicas `drivers` of `primary`, probed from now until `close`. With none, `next` is always
 * undefined and nothing is probed.
 */
export function replicaSet(primary: SqlDriver, drivers: readonly SqlDriver[], options: ReplicaSetOptions): ReplicaSet {
  const { maxLagMs, intervalMs, probeTimeoutMs = 1000 } = options;
  const replicas: Replica[] = drivers.map((driver, i) => ({
    name: String(i + 1),
    driver,
    up: false,
    freshAsOf: undefined,
    position: 0,
    probing: false,
  }));
  /**
   * The primary's WAL position at recent times, oldest first: kept long enough to place any replica within
   * the bound.
   */
  const samples: { at: number; lsn: bigint }[] = [];
  const fallbacks: FallbackCounts = { empty: 0, failed: 0, unfit: 0 };
  let turn = 0;

  const fit = (replica: Replica, now: number, atLeast: number | undefined) =>
    replica.up &&
    replica.freshAsOf !== undefined &&
    now - replica.freshAsOf <= maxLagMs &&
    (atLeast === undefined || replica.position >= atLeast);

  const probeReplica = async (replica: Replica) => {
    if (replica.probing) return;
    replica.probing = true;
    try {
      const [row] = await withTimeout(
        replica.driver.query<{ recovering: boolean; replayed: string | null; position: string }>(
          `SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS replayed,
                  (SELECT position FROM feed_head)::text AS position`,
        ),
        probeTimeoutMs,
      );
      replica.up = true;
      replica.position = Number(row.position);
      const now = Date.now();
      // A server that is not in recovery is a primary (a promoted replica): it holds all it has.
      if (!row.recovering || row.replayed === null) return void (replica.freshAsOf = now);
      const replayed = lsnBytes(row.replayed);
      // The latest sample it has replayed: all committed before that sample's time.
      for (let i = samples.length - 1; i >= 0; i--) {
        if (samples[i].lsn <= replayed) {
          replica.freshAsOf = Math.max(replica.freshAsOf ?? 0, samples[i].at);
          return;
        }
      }
    } catch {
      replica.up = false;
    } finally {
      replica.probing = false;
    }
  };

  const probe = async () => {
    if (!replicas.length) return;
    try {
      const [{ lsn }] = await withTimeout(
        primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn'),
        probeTimeoutMs,
      );
      const now = Date.now();
      samples.push({ at: now, lsn: lsnBytes(lsn) });
      // Older samples than the bound (and one before it) place no replica in rotation.
      while (samples.length > 2 && samples[1].at < now - maxLagMs - 2 * intervalMs) samples.shift();
    } catch {
      // The primary not answering: no sample, so the replicas' bounds grow until it answers again.
    }
    await Promise.all(replicas.map(probeReplica));
  };

  const timer = replicas.length ? setInterval(() => void probe(), intervalMs).unref() : undefined;
  // Until the first probe answers, the primary reads.
  void probe();

  return {
    next(atLeast) {
      if (!replicas.length) return undefined;
      const now = Date.now();
      for (let tried = 0; tried < replicas.length; tried++) {
        const replica = replicas[turn++ % replicas.length];
        if (fit(replica, now, atLeast)) return replica.driver;
      }
      fallbacks.unfit++;
      return undefined;
    },
    failed(driver) {
      const replica = replicas.find((r) => r.driver === driver);
      if (replica) replica.up = false;
      fallbacks.failed++;
    },
    fallbacks,
    states() {
      const now = Date.now();
      return replicas.map((replica) => ({
        name: replica.name,
        condition: !replica.up ? 'down' : fit(replica, now, undefined) ? 'up' : 'lagging',
        lagMs: replica.up && replica.freshAsOf !== undefined ? now - replica.freshAsOf : undefined,
      }));
    },
    probe,
    async close() {
      clearInterval(timer);
      await Promise.all(replicas.map((replica) => replica.driver.close()));
    },
  };
}
