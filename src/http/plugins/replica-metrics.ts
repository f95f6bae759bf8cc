/**
 * The read replicas in /metrics: each one's state and lag, and the reads asked of the primary
 * instead, read from the store when scraped. Labelled by the replica's place in
 * DATABASE_READ_URLS, never its URL (which may hold a password). With SUGGESTION_INDEX=service,
 * the close-match indexes' state too: whether built, and how far along the change feed.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import type { ReadPaths } from '../../model/store.ts';

async function replicaMetrics(app: FastifyInstance, { readPaths }: { readPaths: () => ReadPaths }) {
  const registers = [app.metricsRegistry];
  new Gauge({
    name: 'lev_db_replica_up',
    help: 'Whether each read replica is in rotation (1), or out of it, lagging or not answering (0)',
    labelNames: ['replica', 'condition'] as const,
    registers,
    collect() {
      this.reset();
      for (const replica of readPaths().replicas)
        this.set({ replica: replica.name, condition: replica.condition }, replica.condition === 'up' ? 1 : 0);
    },
  });
  new Gauge({
    name: 'lev_db_replica_lag_seconds',
    help:
      'How far behind the primary each answering read replica may be, at most (its replay position against ' +
      "the primary's, measured on an interval)",
    labelNames: ['replica'] as const,
    registers,
    collect() {
      this.reset();
      for (const replica of readPaths().replicas)
        if (replica.lagMs !== undefined) this.set({ replica: replica.name }, replica.lagMs / 1000);
    },
  });
  new Counter({
    name: 'lev_db_primary_fallback_reads_total',
    help:
      'Reads asked of the primary rather than a replica: empty (a replica found nothing), failed (a replica ' +
      'failed), unfit (none was in rotation, or held the feed position asked for)',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(readPaths().fallbacks)) this.inc({ reason }, count);
    },
  });
  if (!readPaths().suggestionIndex) return;
  new Gauge({
    name: 'lev_suggestion_index_built',
    help:
      'Whether the close-match indexes held in the service are built (1), or being built while the database ' +
      'finds candidates (0)',
    registers,
    collect() {
      this.set(readPaths().suggestionIndex?.built ? 1 : 0);
    },
  });
  new Gauge({
    name: 'lev_suggestion_index_position',
    help:
      "The change feed position the close-match indexes held in the service have applied: behind the feed's " +
      'head by the writes they have yet to read',
    registers,
    collect() {
      this.set(readPaths().suggestionIndex?.position ?? 0);
    },
  });
}

export const replicaMetricsPlugin = fp(replicaMetrics, { name: 'lev-replica-metrics', dependencies: ['lev-metrics'] });
