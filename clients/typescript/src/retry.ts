/**
 * Retries of GET requests answered 503 (the service cannot answer now) or 429 (the caller is over
 * its rate): after the server's Retry-After when it gives one, otherwise after an exponential
 * back-off with full jitter, so that many clients refused at once do not come back at once.
 */
export interface RetryOptions {
  /** Tries in all, the first included (default 3; 1 for none). */
  readonly attempts?: number;
  /** The back-off's first ceiling (default 200 ms), doubled at each retry. */
  readonly baseDelayMs?: number;
  /** No wait is longer: a Retry-After beyond it is not waited for, and the answer is given as it is (default 10 s). */
  readonly maxDelayMs?: number;
}

export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Milliseconds a Retry-After header asks for (seconds, or an HTTP date), or undefined. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });

/** `send` wrapped so that GETs answered 429 or 503 are sent again, as `options` allow. */
export function withRetries(
  send: (request: Request) => Promise<Response>,
  { attempts = 3, baseDelayMs = 200, maxDelayMs = 10_000 }: RetryOptions = {},
  wait: Sleep = sleep,
  random: () => number = Math.random,
): (request: Request) => Promise<Response> {
  return async (request) => {
    // Only GETs: sending anything else again could do it twice.
    if (request.method !== 'GET') return send(request);
    for (let attempt = 1; ; attempt++) {
      const response = await send(request.clone());
      if (attempt >= attempts || !RETRIED_STATUSES.has(response.status)) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > maxDelayMs) return response;
      const delay = asked ?? random() * Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      // The body is not read: release the connection before waiting.
      await response.body?.cancel().catch(() => {});
      await wait(delay, request.signal);
    }
  };
}
