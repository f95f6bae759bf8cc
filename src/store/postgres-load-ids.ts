/**
 * The ids a load has given, kept in PostgreSQL rather than in the loader's memory, so that a file
 * of any size loads in bounded memory (docs/store.md#one-ingest-pipeline): a temporary table,
 * on disk past the server's temp buffers, on a connection of its own held for the whole load (all
 * its files), beside the connection that writes. Each batch's ids are added and its repeats found
 * by one statement, while the writer copies the batch before it. A temporary table writes no WAL,
 * and the transaction holding it is rolled back at the end: nothing of it stays.
 */
import type { LoadIds } from '../model/store.ts';
import type { SqlDriver, SqlExecutor } from './driver.ts';

/** Ends the transaction holding the table. */
class Closed extends Error {}

/**
 * Adds the ids given (the INSERT, in id order so that the primary key is filled page by page) and
 * answers those the table held before: every part of one statement reads the table as it was
 * before the statement, so the subquery sees only earlier batches. The subquery probes the primary
 * key once an id, whatever the planner guesses of a temporary table nothing has analysed.
 */
const ADD = `
WITH given (id, at) AS (SELECT * FROM unnest($1::bigint[], $2::bigint[])),
     added AS (INSERT INTO load_ids (id, at) SELECT id, at FROM given ORDER BY id ON CONFLICT (id) DO NOTHING)
SELECT id::text AS id, first::text AS first
  FROM (SELECT g.id, (SELECT l.at FROM load_ids l WHERE l.id = g.id) AS first FROM given g) repeats
 WHERE first IS NOT NULL`;

/** Opens the table on a connection of `driver`'s own, which it keeps until `close`. */
export async function openLoadIds(driver: SqlDriver): Promise<LoadIds> {
  let close!: () => void;
  const closing = new Promise<void>((resolve) => (close = resolve));
  let opened!: (tx: SqlExecutor) => void;
  let failed!: (error: unknown) => void;
  const open = new Promise<SqlExecutor>((resolve, reject) => ((opened = resolve), (failed = reject)));
  const held = driver
    .transaction(async (tx) => {
      await tx.query('CREATE TEMP TABLE load_ids (id bigint PRIMARY KEY, at bigint NOT NULL) ON COMMIT DROP');
      opened(tx);
      await closing;
      throw new Closed();
    })
    // Failing to open is the caller's to hear; failing to roll back leaves nothing behind (the table
    // goes with its transaction, the connection with its failure).
    .catch((error: unknown) => void (error instanceof Closed || failed(error)));
  const tx = await open;
  return {
    async add(ids, positions) {
      const rows = await tx.query<{ id: string; first: string }>(ADD, [ids, positions]);
      return new Map(rows.map((row) => [Number(row.id), Number(row.first)]));
    },
    async close() {
      close();
      await held;
    },
  };
}
