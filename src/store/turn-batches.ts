/**
 * Reads of one kind asked in the same turn of the event loop, made by one
 * statement. A lookup's or a search's own cost in PostgreSQL is mostly not
 * the index probe but what surrounds it: the message round trip, waking the
 * backend, starting and ending the statement's execution, and on the service's
 * side the driver's work for a statement and its answer. Under load several
 * requests are read in each turn, and one statement for all of them costs
 * little more than one of them alone (docs/performance.md).
 *
 * As the audit trail commits its entries, a group's statements are limited in
 * number: while `inFlight` of them are being read, the reads asked meanwhile
 * wait together for the next, so a busy service reads more requests a
 * statement rather than more statements at once; an idle one reads each at
 * once. Every read is still answered from the database by a statement started
 * after it was asked: nothing is kept once its batch is answered.
 */
import { asPromise } from '../errors.ts';

interface TurnBatches<Group, Item, Result> {
  /** What reads may share a statement: the same type, read position, limit. */
  groupKey(group: Group): string;
  /** Reads of the same item in one batch are read once. */
  itemKey(item: Item): string;
  /** Reads the distinct `items` of `group`: a result for each, in their order. */
  read(group: Group, items: readonly Item[]): Promise<readonly Result[]>;
  /** How many of a group's statements may be read at once (by default 2: one being read while the next gathers). */
  readonly inFlight?: number;
}

interface Batch<Group, Item, Result> {
  readonly group: Group;
  readonly items: Map<string, Item>;
  readonly waiters: {
    readonly key: string;
    readonly resolve: (result: Result) => void;
    readonly reject: (error: unknown) => void;
  }[];
  /** Whether it has been given its turn (it may be waiting for the next turn of the event loop). */
  started: boolean;
}

/**
 * A read that joins the batch of its group, read from the event loop's next turn (so that every
 * request read in this turn joins it), or, while `inFlight` of the group's batches are being read,
 * once one of them is answered. The batch's failure is each of its reads'.
 */
export function turnBatches<Group, Item, Result>({
  groupKey,
  itemKey,
  read,
  inFlight = 2,
}: TurnBatches<Group, Item, Result>): (group: Group, item: Item) => Promise<Result> {
  /** By group key: the batch gathering reads, and how many of the group's batches are being read. */
  const groups = new Map<string, { gathering?: Batch<Group, Item, Result>; reading: number }>();
  // Callbacks rather than an async function: a read on every request's path makes its statement's
  // promise and one more here, not five (docs/performance.md#tracing).
  const run = (key: string, batch: Batch<Group, Item, Result>) => {
    batch.started = true;
    setImmediate(() => {
      const state = groups.get(key)!;
      if (state.gathering === batch) state.gathering = undefined;
      state.reading++;
      const done = () => {
        state.reading--;
        const next = state.gathering;
        if (next && !next.started) run(key, next);
        else if (!next && state.reading === 0) groups.delete(key);
      };
      const keys = [...batch.items.keys()];
      const failed = (error: unknown) => {
        for (const waiter of batch.waiters) waiter.reject(error);
      };
      asPromise(() => read(batch.group, [...batch.items.values()])).then(
        (results) => {
          try {
            const byKey = new Map(keys.map((k, i) => [k, results[i]]));
            for (const waiter of batch.waiters) waiter.resolve(byKey.get(waiter.key) as Result);
          } catch (error) {
            failed(error);
          }
          done();
        },
        (error) => {
          failed(error);
          done();
        },
      );
    });
  };
  return (group, item) =>
    new Promise((resolve, reject) => {
      const key = groupKey(group);
      let state = groups.get(key);
      if (!state) groups.set(key, (state = { reading: 0 }));
      let batch = state.gathering;
      if (!batch) {
        batch = { group, items: new Map(), waiters: [], started: false };
        state.gathering = batch;
        if (state.reading < inFlight) run(key, batch);
      }
      const itemKeyOf = itemKey(item);
      batch.items.set(itemKeyOf, item);
      batch.waiters.push({ key: itemKeyOf, resolve, reject });
    });
}
