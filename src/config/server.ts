/**
 * How a process listens and what a connection may take of it: the API's and the pages' own
 * process (`lev-api ui`) alike (http/transport.ts).
 */
import { Type } from '@sinclair/typebox';
import type { EnvValues } from './read-env.ts';
import type { Settled } from './shape.ts';
import { TlsFiles } from './tls.ts';

export const LogLevel = Type.Union(
  (['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const).map((level) => Type.Literal(level)),
  { default: 'info', description: 'pino log level' },
);

/** Where and how a process listens. */
export const Listening = {
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8080, description: 'TCP port to listen on' }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0', description: 'Address to listen on' }),
  ...TlsFiles,
  LOG_LEVEL: LogLevel,
};

export const ConnectionSettings = {
  REQUEST_TIMEOUT_S: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 30,
    description:
      'Seconds a client has to send a whole request (line, headers and body); a slower one gets 408 and is ' +
      'disconnected',
  }),
  HEADERS_TIMEOUT_S: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 10,
    description: 'Seconds a client has to send the request line and headers; at most REQUEST_TIMEOUT_S',
  }),
  KEEP_ALIVE_TIMEOUT_S: Type.Integer({
    minimum: 1,
    maximum: 3600,
    default: 72,
    description: 'Seconds a connection may stay open idle between requests',
  }),
  MAX_CONNECTIONS: Type.Integer({
    minimum: 1,
    maximum: 1_000_000,
    default: 10_000,
    description:
      'Open connections the process serves at once; beyond it, a new connection that sends its request at ' +
      'once takes the place of the connection idle longest, and one that does not is closed',
  }),
};

/** What a connection may take of the server before it is refused or cut off. */
export const ConnectionLimits = Type.Object({
  requestTimeoutMs: Type.Number(),
  headersTimeoutMs: Type.Number(),
  keepAliveTimeoutMs: Type.Number(),
  maxConnections: Type.Number(),
});
export type ConnectionLimits = Settled<typeof ConnectionLimits>;

/** The connection settings, checked together. */
export function connectionsOf(value: EnvValues<typeof ConnectionSettings>, problems: string[]): ConnectionLimits {
  if (value.HEADERS_TIMEOUT_S > value.REQUEST_TIMEOUT_S) {
    problems.push(
      `HEADERS_TIMEOUT_S=${value.HEADERS_TIMEOUT_S} is longer than ` +
        `REQUEST_TIMEOUT_S=${value.REQUEST_TIMEOUT_S}: the headers are part of the request`,
    );
  }
  return {
    requestTimeoutMs: value.REQUEST_TIMEOUT_S * 1000,
    headersTimeoutMs: value.HEADERS_TIMEOUT_S * 1000,
    keepAliveTimeoutMs: value.KEEP_ALIVE_TIMEOUT_S * 1000,
    maxConnections: value.MAX_CONNECTIONS,
  };
}

/** Which web pages may call the API from a browser. */
export const Cors = {
  CORS_ORIGINS: Type.Optional(
    Type.String({
      pattern: '^https?://[^,/\\s]+(,https?://[^,/\\s]+)*$',
      description:
        'Comma-separated origins (scheme://host[:port]) whose web pages may call the API from a browser ' +
        '(CORS); unset, no page of another origin may',
    }),
  ),
};
