/**
 * Yields what `source` yields, asking it for the next value as soon as the
 * current one is handed on: while a consumer writes one batch, the next is
 * already being read and checked.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  let done = false;
  try {
    for (;;) {
      const result = await next;
      if (result.done) {
        done = true;
        return;
      }
      next = iterator.next();
      // Observed when awaited, or in `finally` when the consumer stops first.
      next.catch(() => {});
      yield result.value;
    }
  } finally {
    if (!done) {
      // The consumer stopped (or failed): the value being read is dropped and the source closed.
      await next.catch(() => {});
      await iterator.return?.();
    }
  }
}
