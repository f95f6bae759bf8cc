/**
 * A load run on a thread of its own (see in-worker.ts): reads the record types (a thread is an
 * entry point, sharing no module with the one that started it), opens its connection, loads the
 * files and posts its progress and its outcome to the thread that started it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRecordTypes } from '../records/index.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { createPostgresRecords } from '../store/postgres-records.ts';
import { LoadError, loadFiles } from './loader.ts';
import type { WorkerLoad, WorkerMessage } from './in-worker.ts';

const post = (message: WorkerMessage) => parentPort!.postMessage(message);
const { database, type, files, options } = workerData as WorkerLoad;
const driver = openPostgres(database);
try {
  const descriptions = await loadRecordTypes();
  const description = descriptions.find((d) => d.name === type);
  if (!description) throw new Error(`unknown record type ${type}`);
  const { writer } = createPostgresRecords(driver, descriptions);
  const result = await loadFiles(writer, description, files, {
    ...options,
    stdin: process.stdin,
    onProgress: (progress) => post({ progress }),
  });
  post({ result });
} catch (error) {
  post({
    failure:
      error instanceof LoadError
        ? { message: error.message, file: error.file, committed: error.committed }
        : { message: (error as Error).message ?? String(error) },
  });
} finally {
  await driver.close();
  // Ends this thread only; stdin, left unread when the load stopped early, would otherwise keep it alive.
  process.exit(0);
}
