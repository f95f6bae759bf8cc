/**
 * Every error the interface can answer with, each with a stable code. The
 * body is always `{"code", "message"}`, as the published interface has it.
 */
import { LevError } from '../errors.ts';

export class ApiError extends LevError {
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    // An answer, not a fault: nothing reads its stack (a failure it reports is its `cause`, with its
    // own), and capturing one through Fastify's frames cost some 15 µs a 404 under load.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, { code, status, headers });
    Error.stackTraceLimit = stackTraceLimit;
  }

  /** Fastify's name for the status, which its own reply handling reads. */
  get statusCode(): number {
    return this.status;
  }
}

export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);
export const unauthorized = (message = 'Caller identity is missing: a username and a client are required', headers: Record<string, string> = {}) =>
  new ApiError(401, 'Unauthorized', message, headers);
export const forbidden = (message: string) => new ApiError(403, 'Forbidden', message);
export const notFound = (message = 'No record has that system number') => new ApiError(404, 'NotFound', message);
export const routeNotFound = (path: string) => new ApiError(404, 'ResourceNotFound', `${path} does not exist`);
export const methodNotAllowed = (method: string, allow: string) =>
  new ApiError(405, 'MethodNotAllowed', `${method} is not allowed`, { allow });
export const serviceUnavailable = (message: string) => new ApiError(503, 'ServiceUnavailable', message);

/**
 * Runs `work`, a read of something the service depends on; its failure means the service cannot
 * answer now (503, the caller may retry), with the failure kept as the cause for the log.
 */
export const unavailableUnless =
  (message: string) =>
  async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw Object.assign(serviceUnavailable(message), { cause: error });
    }
  };
