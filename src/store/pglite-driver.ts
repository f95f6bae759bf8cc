import { PGlite } from '@electric-sql/pglite';
import type { SqlDriver, SqlExecutor } from './driver.ts';

/** The embedded store: PostgreSQL compiled to WebAssembly, in memory unless given a data directory. */
export async function openEmbedded(dataDir?: string): Promise<SqlDriver> {
  const db = await PGlite.create(dataDir);
  const executor = (target: Pick<PGlite, 'query'>): SqlExecutor => ({
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      return (await target.query<Row>(sql, params as unknown[])).rows;
    },
  });
  return {
    kind: 'embedded',
    ...executor(db),
    async exec(sql) {
      await db.exec(sql);
    },
    // PGlite is one connection that runs one transaction at a time, in this process alone: every
    // transaction already runs after the one before it, as an advisory lock (options.lock) would make it.
    transaction: (work) => db.transaction((tx) => work(executor(tx))),
    // Closing twice is harmless, as with the pg pool.
    close: async () => {
      if (!db.closed) await db.close();
    },
  };
}
