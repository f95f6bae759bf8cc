/**
 * Why a delivery attempt failed, in a fixed vocabulary: each `lastError` (and dead letter's error)
 * starts with one of FAILURE_KINDS, then a colon and words for the operator. An operator (or a
 * dashboard) can match the kind; the words after it may change. A receiver's answer body is never
 * part of it. docs/events.md ("Why an attempt failed") lists the kinds.
 */

export const FAILURE_KINDS = [
  'timeout',
  'refused',
  'reset',
  'tls',
  'unresolved',
  'unreachable',
  'status',
  'redirect not followed',
  'address not allowed',
  'failed',
] as const;

const TLS_CODE = /^(ERR_SSL_|ERR_TLS_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|CERT_|HOSTNAME_MISMATCH|ERR_OSSL_)/;

/** A seconds figure as the setting was given (15, or 0.3 in tests). */
const seconds = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/** An answer that was not a 2xx: its status, and for a 3xx that it was not followed. */
export function statusFailure(status: number, redirectsElsewhere = false): string {
  if (status >= 300 && status < 400)
    return `redirect not followed: the receiver answered ${status}${
      redirectsElsewhere ? ' (a redirect elsewhere)' : ''
    }`;
  return `status ${status}: the receiver answered ${status}`;
}

export const addressFailure = (problem: string) => `address not allowed: ${problem}`;

export const unresolvedFailure = (host: string, code: string) => `unresolved: ${host} did not resolve (${code})`;

/**
 * A request that got no answer, by what undici or node threw. The code of a DOMException (the
 * AbortSignal's TimeoutError) is a number, 23, which says nothing: the name is what tells.
 */
export function errorFailure(error: unknown, timeoutMs: number): string {
  const named = error as { name?: string; code?: unknown; cause?: unknown; message?: string };
  const cause = (named.cause ?? {}) as { code?: unknown; name?: string };
  const code = [named.code, cause.code].find((value): value is string => typeof value === 'string') ?? '';
  const name = named.name ?? '';
  if (
    name === 'TimeoutError' ||
    cause.name === 'TimeoutError' ||
    /^UND_ERR_(HEADERS|BODY|CONNECT)_TIMEOUT$/.test(code) ||
    code === 'ETIMEDOUT'
  ) {
    return `timeout: no answer within ${seconds(timeoutMs)}`;
  }
  if (TLS_CODE.test(code)) return `tls: the TLS handshake or the receiver's certificate failed (${code})`;
  if (code === 'ECONNREFUSED') return 'refused: the receiver refused the connection (nothing listens there)';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED')
    return `reset: the connection was closed before an answer (${code})`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EHOSTDOWN')
    return `unreachable: no route to the receiver (${code})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `unresolved: the receiver's name did not resolve (${code})`;
  return `failed: no answer (${code || name || 'an unknown error'})`;
}
