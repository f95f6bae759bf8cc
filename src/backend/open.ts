/**
 * Opens the backend the configuration asks for: a PostgreSQL server when
 * DATABASE_URL is set, else the embedded one filled with the built-in mock
 * records (and an invented audit history), or with the records of LEV_DATA.
 */
import type { Config } from '../config.ts';
import { loadDataPath } from '../load/data-path.ts';
import { type Source, loadSources } from '../load/loader.ts';
import { auditHistory } from '../mock/audit-history.ts';
import { mockRecords } from '../mock/dataset.ts';
import { startLiveMock } from '../mock/live.ts';
import type { RecordDescription } from '../records/define.ts';
import { records } from '../records/index.ts';
import type { RecordWriter } from '../types/store.ts';
import { type MemoryBackend, openMemoryBackend } from './memory.ts';
import { type PostgresBackend, openPostgresBackend } from './postgres.ts';

/** The built-in records of a type, as NDJSON text loaded like any file (so the mock can never serve what a load would refuse). */
const mockSource = (type: string, entries: readonly object[]): Source => ({
  name: `the built-in ${type} records`,
  size: undefined,
  open: () => [entries.map((entry) => JSON.stringify(entry)).join('\n')],
});

/** Loads the built-in mock records. */
export async function loadMock(writer: RecordWriter, descriptions: readonly RecordDescription[] = records): Promise<void> {
  const dataset = mockRecords() as Record<string, object[]>;
  for (const { name } of descriptions) await loadSources(writer, name, [mockSource(name, dataset[name] ?? [])]);
}

/** The mock's invented audit history (src/mock/audit-history.ts), chained like any other entries. */
export async function seedAuditHistory(backend: MemoryBackend, today: Date): Promise<void> {
  for (const { at, entry } of auditHistory(today)) await backend.trail.append([entry], at);
}

export async function openBackend(config: Config): Promise<MemoryBackend | PostgresBackend> {
  const backend = config.database
    ? openPostgresBackend(config.database, records, config.auditCheckpoints)
    : await openMemoryBackend(records, config.embeddedAudit, config.auditCheckpoints);
  try {
    // A server's schema is the operator's to migrate: until it is current the service does not start.
    if (backend.kind === 'postgres') await backend.records.ready();
    else if (config.dataPath) await loadDataPath(backend.writer, config.dataPath, records);
    else {
      // Every built-in record is announced on the change feed as registered, as any load's are.
      await loadMock(backend.writer);
      // Only into a trail of the process's own: never into an audit file that outlives it.
      if (!config.embeddedAudit.file) await seedAuditHistory(backend, new Date());
      const live = startLiveMock(backend.writer, config.events.mockIntervalS, (error) =>
        console.error(`the live mock could not add a registration: ${error.message}`),
      );
      return { ...backend, close: () => (live.stop(), backend.close()) };
    }
    return backend;
  } catch (error) {
    await backend.close().catch(() => {});
    throw error;
  }
}
