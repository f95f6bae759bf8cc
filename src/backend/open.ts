/**
 * Opens the backend the configuration asks for: a PostgreSQL server when
 * DATABASE_URL is set, else the embedded one filled with the built-in mock
 * records (and an invented audit history), or with the records of LEV_DATA.
 */
import type { Config } from '../config/index.ts';
import { DescriptionError } from '../errors.ts';
import { loadDataPath } from '../load/data-path.ts';
import { type Source, loadSources } from '../load/loader.ts';
import { auditHistory } from '../mock/audit-history.ts';
import {
  type TypeScenarios,
  isSearchable,
  loadScenarioFiles,
  mockProblems,
  mockRecords,
  scenariosOf,
} from '../mock/dataset.ts';
import { startLiveMock } from '../mock/live.ts';
import type { RecordDescription } from '../records/define.ts';
import { loadRecordTypes } from '../records/index.ts';
import type { RecordWriter } from '../model/store.ts';
import { type MemoryBackend, openMemoryBackend } from './memory.ts';
import type { PostgresBackend } from './postgres.ts';

/**
 * The built-in records of a type, as NDJSON text loaded like any file (so the mock can never serve what a
 * load would refuse).
 */
const mockSource = (type: string, entries: readonly object[]): Source => ({
  name: `the built-in ${type} records`,
  size: undefined,
  open: () => [entries.map((entry) => JSON.stringify(entry)).join('\n')],
});

/** The record types a service serves: their descriptions, and their mock scenario files. */
export interface ServiceTypes {
  readonly descriptions: readonly RecordDescription[];
  readonly scenarios: readonly TypeScenarios[];
}

/** The built-in record types and their scenarios, read from their folders: by an entry point, once. */
export async function loadBuiltInTypes(): Promise<ServiceTypes> {
  return { descriptions: await loadRecordTypes(), scenarios: await loadScenarioFiles() };
}

/**
 * Loads the mock records of each type. Checked once, at start: a type the mock cannot serve (no
 * scenario file, no record with every field filled, a record nothing finds) is refused rather
 * than served empty or unfindable.
 */
export async function loadMock(writer: RecordWriter, { descriptions, scenarios }: ServiceTypes): Promise<void> {
  const dataset = mockRecords(descriptions, scenarios);
  const [first] = mockProblems(descriptions, scenarios, dataset);
  if (first) throw new DescriptionError(first.type, 'mock records', first.problem);
  for (const description of descriptions)
    await loadSources(writer, description, [mockSource(description.name, dataset[description.name] ?? [])]);
}

/**
 * The mock's invented audit history (src/mock/audit-history.ts) of the types' searchable scenarios, chained
 * like any other entries.
 */
async function seedAuditHistory(
  backend: MemoryBackend,
  today: Date,
  { descriptions, scenarios }: ServiceTypes,
): Promise<void> {
  const searchable = descriptions
    .flatMap((description) => scenariosOf(description.name, scenarios))
    .filter(isSearchable);
  for (const { at, entry } of auditHistory(today, searchable)) await backend.trail.append([entry], at);
}

/** Runs `prepare` on a backend just opened; closes it if that fails. */
async function preparing<B extends MemoryBackend | PostgresBackend>(backend: B, prepare: () => Promise<B>): Promise<B> {
  try {
    return await prepare();
  } catch (error) {
    await backend.close().catch(() => {});
    throw error;
  }
}

/** Opens the configured backend for `types`, read by the entry point. */
export async function openBackend(config: Config, types: ServiceTypes): Promise<MemoryBackend | PostgresBackend> {
  const { descriptions } = types;
  if (config.database) {
    // Imported here: the embedded store's process (the mock) never loads the driver.
    const { openPostgresBackend } = await import('./postgres.ts');
    const backend = openPostgresBackend(config.database, descriptions, {
      checkpoints: config.auditCheckpoints,
      suggestionIndex: config.database.suggestionIndex,
      suggestionThreads: config.suggestThreads,
    });
    // A server's schema is the operator's to migrate: until it is current the service does not start.
    return preparing(backend, async () => (await backend.records.ready(), backend));
  }
  const backend = await openMemoryBackend(descriptions, config.embeddedAudit, config.auditCheckpoints, {
    suggestionThreads: config.suggestThreads,
  });
  return preparing(backend, async () => {
    if (config.dataPath) await loadDataPath(backend.writer, config.dataPath, descriptions);
    else {
      // Every built-in record is announced on the change feed as registered, as any load's are.
      await loadMock(backend.writer, types);
      // Only into a trail of the process's own: never into an audit file that outlives it.
      if (!config.embeddedAudit.file) await seedAuditHistory(backend, new Date(), types);
      const live = startLiveMock(
        backend.writer,
        config.events.mockIntervalS,
        (error) => console.error(`the live mock could not add a registration: ${error.message}`),
        Math.random,
        descriptions,
      );
      return { ...backend, close: () => (live.stop(), backend.close()) };
    }
    return backend;
  });
}
