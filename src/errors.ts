/**
 * The failures the service names on purpose, and how each is told. Every such error carries its
 * `code` (the HTTP body's, and the log's), the HTTP `status` it answers with where a request
 * meets it, and the `exitCode` a command ends with. One mapper (`http/error-handler.ts`) turns
 * them into `{"code", "message"}` bodies and one reporter (`reportError` below) into a command's
 * one line, so neither needs to know any error by its name. Anything else is a fault: a 500 with
 * a request id, or a command's exit 1.
 *
 * Exit codes: 2 when the command was called or configured wrongly (the operator can fix the call),
 * 1 when it ran and failed.
 */
interface ErrorTraits {
  readonly code: string;
  readonly status?: number;
  readonly exitCode?: 1 | 2;
  /** Headers an HTTP answer carries (Allow, WWW-Authenticate, Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class LevError extends Error {
  readonly code: string;
  readonly status: number;
  readonly exitCode: 1 | 2;
  readonly headers: Readonly<Record<string, string>>;

  constructor(message: string, { code, status = 500, exitCode = 1, headers = {}, cause }: ErrorTraits) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.exitCode = exitCode;
    this.headers = headers;
  }
}

/** A mistake in how a command was called: told with a pointer to its usage, exit 2. */
export class UsageError extends LevError {
  constructor(message: string) {
    super(message, { code: 'Usage', exitCode: 2 });
  }
}

/** A setting the service cannot run with: exit 2. */
export class ConfigError extends LevError {
  constructor(message: string) {
    super(message, { code: 'Configuration', exitCode: 2 });
  }
}

/** A record description that declares something it cannot mean: found when descriptions are compiled at start. */
export class DescriptionError extends LevError {
  constructor(
    readonly record: string,
    readonly key: string,
    message: string,
  ) {
    super(`record type ${record}: ${key}: ${message}`, { code: 'Description' });
  }
}

/** The line a command prints for a failure, and the code it exits with; a fault (not a LevError) exits 1. */
export function reportError(command: string, error: unknown): { line: string; exitCode: 1 | 2 } {
  if (error instanceof UsageError)
    return { line: `lev-api ${command}: ${error.message} (see 'lev-api ${command} --help')`, exitCode: 2 };
  if (error instanceof LevError) return { line: `lev-api ${command}: ${error.message}`, exitCode: error.exitCode };
  return { line: `lev-api ${command}: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 };
}

/**
 * Every error the interface can answer with, each with a stable code. The
 * body is always `{"code", "message"}`, as the published interface has it.
 */
export class ApiError extends LevError {
  /**
   * A 5xx that is a documented limit reached (the feed's waiting reads), not a failure: the service
   * works as designed, so it is logged at warn, and error level keeps meaning that something failed.
   */
  readonly limit: boolean;

  constructor(
    status: number,
    code: string,
    message: string,
    headers: Record<string, string> = {},
    { limit = false } = {},
  ) {
    // An answer, not a fault: nothing reads its stack (a failure it reports is its `cause`, with its
    // own), and capturing one through Fastify's frames cost some 15 µs a 404 under load.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, { code, status, headers });
    Error.stackTraceLimit = stackTraceLimit;
    this.limit = limit;
  }

  /** Fastify's name for the status, which its own reply handling reads. */
  get statusCode(): number {
    return this.status;
  }
}

export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);
export const unauthorized = (
  message = 'Caller identity is missing: a username and a client are required',
  headers: Record<string, string> = {},
) => new ApiError(401, 'Unauthorized', message, headers);
export const forbidden = (message: string) => new ApiError(403, 'Forbidden', message);
export const notFound = (message = 'No record has that system number') => new ApiError(404, 'NotFound', message);
export const routeNotFound = (path: string) => new ApiError(404, 'ResourceNotFound', `${path} does not exist`);
export const methodNotAllowed = (method: string, allow: string) =>
  new ApiError(405, 'MethodNotAllowed', `${method} is not allowed`, { allow });
export const serviceUnavailable = (message: string) => new ApiError(503, 'ServiceUnavailable', message);
/** A documented limit reached: 503, told when to try again, logged at warn. */
export const limitReached = (message: string, retryAfterS: number) =>
  new ApiError(503, 'ServiceUnavailable', message, { 'retry-after': String(retryAfterS) }, { limit: true });

/** What `work` returns, or what it throws as the promise's rejection: failing at once fails as failing later. */
export function asPromise<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Runs `work`, a read of something the service depends on; its failure means the service cannot
 * answer now (503, the caller may retry), with the failure kept as the cause for the log.
 */
export const unavailableUnless = (message: string) => {
  const failed = (error: unknown): never => {
    throw Object.assign(serviceUnavailable(message), { cause: error });
  };
  // Chained rather than async: a read on every request's path makes one promise here, not three.
  return <T>(work: () => Promise<T>): Promise<T> => asPromise(work).then(undefined, failed);
};
