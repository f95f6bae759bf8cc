/**
 * Yields what `source` yields, reading up to `depth` values ahead of the
 * consumer: while it writes one batch, the next ones are already being read
 * and checked.
 */
export async function* readAhead<T>(source: AsyncIterable<T>, depth = 1): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  const ahead: Promise<IteratorResult<T>>[] = [];
  let ended = false;
  // One pull at a time: an async generator answers its calls in order anyway, and a pull after the end is not made.
  let pulling: Promise<unknown> = Promise.resolve();
  const pull = () => {
    const next = pulling.then(() => (ended ? { done: true as const, value: undefined } : iterator.next()));
    pulling = next.then(
      (result) => void (ended ||= Boolean(result.done)),
      () => void (ended = true),
    );
    // Observed when awaited, or in `finally` when the consumer stops first.
    next.catch(() => {});
    ahead.push(next);
  };
  let done = false;
  try {
    for (let i = 0; i < depth; i++) pull();
    for (;;) {
      const result = await ahead.shift()!;
      if (result.done) {
        done = true;
        return;
      }
      pull();
      yield result.value;
    }
  } finally {
    if (!done) {
      // The consumer stopped (or failed): the values being read are dropped and the source closed.
      await Promise.allSettled(ahead);
      await iterator.return?.();
    }
  }
}
