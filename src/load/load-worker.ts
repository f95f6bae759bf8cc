/**
 * A load run on a thread of its own (see in-worker.ts): opens its connection, loads the files and
 * posts its progress and its outcome to the thread that started it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { records } from '../records/index.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { createPostgresRecords } from '../store/postgres-records.ts';
import { LoadError, loadFiles } from './loader.ts';
import type { WorkerLoad, WorkerMessage } from './in-worker.ts';

const post = (message: WorkerMessage) => parentPort!.postMessage(message);
const { database, type, files, options } = workerData as WorkerLoad;
const driver = openPostgres(database);
try {
  const { writer } = createPostgresRecords(driver, records);
  const result = await loadFiles(writer, type, files, { ...options, stdin: process.stdin, onProgress: (progress) => post({ progress }) });
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
