/**
 * Opens the store the configuration asks for: a PostgreSQL server when
 * DATABASE_URL is set, else the embedded database filled with the mock
 * dataset (or the records of LEV_DATA).
 */
import type { Config } from '../config.ts';
import { type RecordType, recordType } from '../data/entries.ts';
import { readRecordFiles } from '../data/read-files.ts';
import { createChainWriter } from '../audit/chain-writer.ts';
import { auditHistory } from '../mock/audit-history.ts';
import { mockRecords } from '../mock/dataset.ts';
import { records } from '../records/index.ts';
import type { SqlDriver } from './driver.ts';
import { openPostgres } from './pg-driver.ts';
import { openEmbedded } from './pglite-driver.ts';
import { assertSchemaCurrent, migrate } from './migrations.ts';
import { type RecordStore, type StoredRecord, createRecordStore, tableNames } from './record-store.ts';
import { snapshotStore } from './snapshot.ts';

export const recordTypes = (): RecordType[] => records.map(recordType);

/** Checks the built-in mock records like any loaded file, so the mock can never serve what a load would refuse. */
export function mockDataset(types: readonly RecordType[]): Map<string, StoredRecord[]> {
  const dataset = mockRecords() as Record<string, unknown[]>;
  return new Map(
    types.map((type) => [
      type.description.name,
      (dataset[type.description.name] ?? []).map((entry, i) => {
        const stored = type.toStored(entry);
        if ('reason' in stored) throw new Error(`mock ${type.description.name} record ${i + 1}: ${stored.reason}`);
        return stored;
      }),
    ]),
  );
}

/**
 * Records a statement carries: the embedded database's statements are messages to its thread, each
 * copied whole on the way, so a type's records go a slice at a time rather than in one message of
 * tens of megabytes. Still one transaction, and a later record with an id replaces an earlier one.
 */
const LOAD_SLICE = 5000;

export async function loadInto(store: RecordStore, dataset: Map<string, StoredRecord[]>) {
  await store.driver.transaction(async (tx) => {
    for (const [type, entries] of dataset) {
      let at = 0;
      do await store.upsert(type, entries.slice(at, (at += LOAD_SLICE)), tx);
      while (at < entries.length);
    }
  });
}

/**
 * The embedded database lives in memory and goes with the process, so its write-ahead log protects
 * nothing: without it, every audit batch and the load at start cost less of the database's thread.
 * (Commits stay atomic; only recovery after a crash, which memory cannot have, is given up.)
 * Referencing tables first: a logged table may not reference an unlogged one. (A test checks that
 * every table of the schema is here.)
 */
const unloggedSql = () =>
  [...records.map((d) => tableNames(d.name).keys), ...records.map((d) => tableNames(d.name).records), 'audit_log', 'schema_migrations']
    .map((table) => `ALTER TABLE ${table} SET UNLOGGED;`)
    .join('\n');

/** The mock's invented audit history (src/mock/audit-history.ts), chained like any other entries. */
export async function seedAuditHistory(driver: SqlDriver, today: Date): Promise<void> {
  const write = createChainWriter(driver);
  for (const { at, entry } of auditHistory(today)) await write([entry], at);
}

export async function openStore(config: Config): Promise<RecordStore> {
  const driver: SqlDriver = config.database ? openPostgres(config.database) : await openEmbedded();
  try {
    // The embedded database is new at every start; a server's schema is the operator's to migrate.
    if (config.database) await assertSchemaCurrent(driver);
    else {
      await migrate(driver);
      await driver.exec(unloggedSql());
    }
    const readers = config.database?.readUrls.map((url) => openPostgres({ ...config.database!, url, applicationName: 'lev-api-read' })) ?? [];
    const store = createRecordStore(driver, records, readers);
    if (config.database) return store;
    const types = recordTypes();
    if (config.dataPath) await loadInto(store, await readRecordFiles(config.dataPath, types));
    else {
      await loadInto(store, mockDataset(types));
      await seedAuditHistory(driver, new Date());
    }
    // Nothing writes records to the embedded database after this: it is read from memory (snapshot.ts).
    return await snapshotStore(store, records.map((description) => description.name));
  } catch (error) {
    await driver.close().catch(() => {});
    throw error;
  }
}
