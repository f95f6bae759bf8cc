/**
 * PGlite as the one connection it is, on the database's thread: a SqlDriver
 * whose transactions hold the connection from BEGIN to their end while
 * everything else waits its turn, so no statement can run inside another
 * caller's transaction. What the driver's messages ask (pglite-thread.ts)
 * and the audit trails hosted there both go through it.
 */
import type { SqlDriver, SqlExecutor } from './driver.ts';
import type { Session } from './pglite-session.ts';

export function connectionDriver(session: Session, close: () => Promise<void>): SqlDriver {
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const done = turn.then(work);
    turn = done.catch(() => {});
    return done;
  };
  // Inside a transaction, which already holds the connection.
  const holder: SqlExecutor = {
    query: async <Row>(sql: string, params: readonly unknown[] = [], options?: { prepare?: boolean }) =>
      (await session.query(sql, params, options?.prepare ?? false)) as Row[],
  };

  return {
    kind: 'embedded',
    query: <Row>(sql: string, params?: readonly unknown[], options?: { prepare?: boolean }) => inTurn(() => holder.query<Row>(sql, params, options)),
    exec: (sql) => inTurn(() => session.exec(sql)),
    // One connection in one process: transactions already run one after the other, as the lock would make them.
    transaction: (work) =>
      inTurn(async () => {
        session.begin();
        let result;
        try {
          result = await work(holder);
        } catch (error) {
          await session.rollback().catch(() => {});
          throw error;
        }
        await session.commit();
        return result;
      }),
    close: () => inTurn(close),
  };
}
