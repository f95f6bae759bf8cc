/**
 * Lookups of one record type asked in the same turn of the event loop, read
 * by one statement. A lookup's own cost in PostgreSQL is mostly not the
 * index probe but what surrounds it: the message round trip, waking the
 * backend, starting and ending the statement's execution. Under load several
 * requests are read in each turn, and one `id = ANY($1)` statement for all of
 * them costs little more than one of them alone (docs/performance.md). Every
 * lookup is still answered from the database, in the turn it was asked: no
 * record is kept once its batch is answered.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Reads the records of `ids` (distinct), by id; an id with no record is absent. */
export type ReadMany = (type: string, ids: readonly string[], atLeast: number | undefined) => Promise<ReadonlyMap<string, string>>;

interface Batch {
  readonly type: string;
  readonly atLeast: number | undefined;
  readonly ids: Set<string>;
  readonly waiters: { readonly id: string; readonly resolve: (data: string | undefined) => void; readonly reject: (error: unknown) => void }[];
}

/**
 * A lookup that joins the batch of its type and read position, read from the event loop's next
 * turn, so that every request read in this turn joins it. The batch's failure is each lookup's.
 */
export function lookupBatches(readMany: ReadMany): (type: string, id: string, atLeast: number | undefined) => Promise<string | undefined> {
  const pending = new Map<string, Batch>();
  const run = async (key: string, batch: Batch) => {
    await nextTurn();
    pending.delete(key);
    try {
      const found = await readMany(batch.type, [...batch.ids], batch.atLeast);
      for (const waiter of batch.waiters) waiter.resolve(found.get(waiter.id));
    } catch (error) {
      for (const waiter of batch.waiters) waiter.reject(error);
    }
  };
  return (type, id, atLeast) =>
    new Promise((resolve, reject) => {
      const key = `${type}\u0000${atLeast ?? ''}`;
      let batch = pending.get(key);
      if (!batch) {
        batch = { type, atLeast, ids: new Set(), waiters: [] };
        pending.set(key, batch);
        void run(key, batch);
      }
      batch.ids.add(id);
      batch.waiters.push({ id, resolve, reject });
    });
}
