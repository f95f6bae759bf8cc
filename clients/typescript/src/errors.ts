/** Every answer the service gives other than success, as one error: status, code, message and request id. */
export class LevApiError extends Error {
  override name = 'LevApiError';
  constructor(
    /**
     * The HTTP status: 400 bad input, 401 no identity, 403 not allowed, 404 no record, 429 slow down, 503 try
     * again.
     */
    readonly status: number,
    /** The service's stable code, e.g. `BadRequest`, `NotFound`. */
    readonly code: string,
    message: string,
    /** The id the service gave the request (its x-request-id header): quote it when asking about an answer. */
    readonly requestId: string | undefined,
  ) {
    super(message);
  }
}

/**
 * The error a failed response stands for, from its `{code, message}` body (as read, text or parsed) when it
 * has one.
 */
export function errorOf(response: Response, body: unknown): LevApiError {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  const given = typeof body === 'object' && body !== null ? (body as { code?: unknown; message?: unknown }) : {};
  // Not the service's JSON (a proxy's page, say): the status says what there is to say.
  const code = typeof given.code === 'string' ? given.code : `Http${response.status}`;
  const message =
    typeof given.message === 'string'
      ? given.message
      : response.statusText || `The service answered ${response.status}`;
  return new LevApiError(response.status, code, message, requestId);
}
