/**
 * The production backend: records, the audit trail and its report in a
 * PostgreSQL server, with read replicas for lookups and searches.
 */
import type { AuditCheckpointConfig } from '../config/audit.ts';
import type { Config } from '../config/index.ts';
import { recordAccesses, userActivity, userEntries } from '../audit/activity.ts';
import { checkpointSigner, newSigningKey, scheduleCheckpoints } from '../audit/checkpoint.ts';
import { latestCheckpoints, takeCheckpoint } from '../audit/checkpoint-writer.ts';
import { postgresAuditTrail } from '../audit/trail.ts';
import type { RecordDescription } from '../records/define.ts';
import type { SqlDriver } from '../store/driver.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { createPostgresCredentialStatuses } from '../store/postgres-credentials.ts';
import { createPostgresWalletStore } from '../store/postgres-wallet.ts';
import { type ReplicaSet, replicaSet } from '../store/replica-set.ts';
import type { CloseMatcher } from '../match/suggest.ts';
import type { PostgresOptions } from '../store/pg-driver.ts';
import { type SuggestionThreads, startSuggestionThreads, threadFirst } from '../store/suggestion-thread.ts';
import { createPostgresEvents } from '../store/postgres-events.ts';
import { createPostgresRecords } from '../store/postgres-records.ts';
import { createPostgresWebhooks } from '../store/postgres-webhooks.ts';
import type { Backend } from '../model/store.ts';

export interface PostgresBackend extends Backend {
  readonly kind: 'postgres';
  /** The primary, for what only PostgreSQL does (migrations, the audit chain's checks, tests). */
  readonly driver: SqlDriver;
  /** The close-match indexes held in the service, on threads of their own, when SUGGESTION_INDEX=service. */
  readonly suggestionIndexes?: SuggestionThreads;
  /** Close matches found by those threads, or from the database while they cannot. */
  readonly closeMatches?: CloseMatcher;
}

interface PostgresBackendOptions {
  readonly checkpoints?: AuditCheckpointConfig;
  /**
   * Where close matches find their candidates (SUGGESTION_INDEX): 'service' builds and follows indexes on a
   * thread of this process.
   */
  readonly suggestionIndex?: 'database' | 'service';
  /** How that thread connects to the primary: `driver`'s settings (it opens connections of its own). */
  readonly connection?: PostgresOptions;
  /** How many such threads, each with its own copy of the indexes (SUGGEST_THREADS). */
  readonly suggestionThreads?: number;
}

/** The backend over `driver` (the primary) and `replicas`; closing it closes them. */
export function postgresBackend(
  driver: SqlDriver,
  descriptions: readonly RecordDescription[],
  replicas?: ReplicaSet,
  {
    checkpoints = { intervalMs: 60_000 },
    suggestionIndex = 'database',
    connection,
    suggestionThreads = 1,
  }: PostgresBackendOptions = {},
): PostgresBackend {
  const events = createPostgresEvents(
    driver,
    descriptions.map((d) => d.name),
  );
  if (suggestionIndex === 'service' && !connection)
    throw new Error("SUGGESTION_INDEX=service needs the primary's connection settings for its thread");
  const suggestionIndexes =
    suggestionIndex === 'service'
      ? startSuggestionThreads(
          descriptions.map((d) => d.name),
          { connection: connection as PostgresOptions },
          (error) =>
            // The message only: the indexes hold names, and an error never quotes them.
            console.error(
              `the close-match index stopped (${error.message}); building it again, close matches read the ` +
                `database meanwhile`,
            ),
          { threads: suggestionThreads },
        )
      : undefined;
  const { reader, writer } = createPostgresRecords(driver, descriptions, replicas, suggestionIndexes);
  const audit = postgresAuditTrail(driver);
  const signer = checkpointSigner(checkpoints.signingKey ?? newSigningKey());
  // Every process tries at every interval; the one that finds no checkpoint taken within the last half
  // interval takes it.
  const schedule = scheduleCheckpoints(
    () => takeCheckpoint(driver, signer, checkpoints.intervalMs / 2),
    checkpoints.intervalMs,
  );
  return {
    kind: 'postgres',
    driver,
    ...(suggestionIndexes ? { suggestionIndexes, closeMatches: threadFirst(suggestionIndexes, reader) } : {}),
    records: reader,
    writer,
    audit,
    report: {
      userActivity: (filter) => userActivity(driver, filter),
      entries: (filter) => userEntries(driver, filter),
      recordAccesses: (filter) => recordAccesses(driver, filter),
      checkpoints: (limit) => latestCheckpoints(driver, limit),
    },
    events: events.feed,
    subscriptions: events.subscriptions,
    webhooks: createPostgresWebhooks(driver),
    credentials: createPostgresCredentialStatuses(driver),
    wallet: createPostgresWalletStore(driver),
    warnings: () => [],
    async close() {
      await Promise.all([schedule.stop(), suggestionIndexes?.stop()]);
      await audit.flush();
      await Promise.all([driver.close(), replicas?.close()]);
    },
  };
}

export function openPostgresBackend(
  database: NonNullable<Config['database']>,
  descriptions: readonly RecordDescription[],
  options: PostgresBackendOptions = {},
): PostgresBackend {
  const driver = openPostgres(database);
  const readers = database.readUrls.map((url) => openPostgres({ ...database, url, applicationName: 'lev-api-read' }));
  const replicas = readers.length
    ? replicaSet(driver, readers, { maxLagMs: database.readMaxLagMs, intervalMs: database.readProbeMs })
    : undefined;
  return postgresBackend(driver, descriptions, replicas, { ...options, connection: database });
}
