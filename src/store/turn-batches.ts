/**
 * Reads of one kind asked in the same turn of the event loop, made by one
 * statement. A lookup's or a search's own cost in PostgreSQL is mostly not
 * the index probe but what surrounds it: the message round trip, waking the
 * backend, starting and ending the statement's execution. Under load several
 * requests are read in each turn, and one statement for all of them costs
 * little more than one of them alone (docs/performance.md). Every read is
 * still answered from the database, in the turn it was asked: nothing is kept
 * once its batch is answered.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

interface TurnBatches<Group, Item, Result> {
  /** What reads may share a statement: the same type, read position, limit. */
  groupKey(group: Group): string;
  /** Reads of the same item in one batch are read once. */
  itemKey(item: Item): string;
  /** Reads the distinct `items` of `group`: a result for each, in their order. */
  read(group: Group, items: readonly Item[]): Promise<readonly Result[]>;
}

interface Batch<Group, Item, Result> {
  readonly group: Group;
  readonly items: Map<string, Item>;
  readonly waiters: { readonly key: string; readonly resolve: (result: Result) => void; readonly reject: (error: unknown) => void }[];
}

/**
 * A read that joins the batch of its group, read from the event loop's next turn, so that every
 * request read in this turn joins it. The batch's failure is each of its reads'.
 */
export function turnBatches<Group, Item, Result>({ groupKey, itemKey, read }: TurnBatches<Group, Item, Result>): (group: Group, item: Item) => Promise<Result> {
  const pending = new Map<string, Batch<Group, Item, Result>>();
  const run = async (key: string, batch: Batch<Group, Item, Result>) => {
    await nextTurn();
    pending.delete(key);
    try {
      const keys = [...batch.items.keys()];
      const results = await read(batch.group, [...batch.items.values()]);
      const byKey = new Map(keys.map((k, i) => [k, results[i]]));
      for (const waiter of batch.waiters) waiter.resolve(byKey.get(waiter.key) as Result);
    } catch (error) {
      for (const waiter of batch.waiters) waiter.reject(error);
    }
  };
  return (group, item) =>
    new Promise((resolve, reject) => {
      const key = groupKey(group);
      let batch = pending.get(key);
      if (!batch) {
        batch = { group, items: new Map(), waiters: [] };
        pending.set(key, batch);
        void run(key, batch);
      }
      const itemKeyOf = itemKey(item);
      batch.items.set(itemKeyOf, item);
      batch.waiters.push({ key: itemKeyOf, resolve, reject });
    });
}
