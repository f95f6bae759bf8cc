/**
 * Readers of the change feed waiting for a commit (`wait=`), for both stores: each wait ends at the
 * next wake, at its time limit, or when its signal aborts, whichever comes first.
 */
interface FeedWaiters {
  /** Resolves at the next wake, after `ms`, or when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** Ends every wait begun before it. */
  wakeAll(): void;
}

export function feedWaiters(): FeedWaiters {
  let waiters = new Set<() => void>();
  return {
    wait(ms, signal) {
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          signal?.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        waiters.add(done);
        signal?.addEventListener('abort', done);
        if (signal?.aborted) done();
      });
    },
    wakeAll() {
      const heard = waiters;
      waiters = new Set();
      for (const wake of heard) wake();
    },
  };
}
