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
export interface ErrorTraits {
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
  if (error instanceof UsageError) return { line: `lev-api ${command}: ${error.message} (see 'lev-api ${command} --help')`, exitCode: 2 };
  if (error instanceof LevError) return { line: `lev-api ${command}: ${error.message}`, exitCode: error.exitCode };
  return { line: `lev-api ${command}: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 };
}
