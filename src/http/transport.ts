/**
 * The listening server, made here for Fastify (its `serverFactory`): HTTP, or
 * HTTPS when TLS_CERT is set, asking every client for a certificate issued by
 * TLS_CLIENT_CA when that is set (the handshake fails without one).
 *
 * What is refused before any work, with the usual `{"code", "message"}` body:
 *
 * - a request line and headers longer than MAX_HEADER_BYTES together (Node's
 *   `maxHeaderSize`): 431, from the parser, before a request exists;
 * - a URL (path and query string) longer than MAX_URL_LENGTH: 414, before
 *   Fastify routes it or parses its query string. No valid request comes
 *   near it: a v0 search with every name at its 100-character limit, each
 *   character percent-encoded, is under 6,000;
 * - CONNECT, which Node never passes to a request handler: 405, the service being no proxy;
 * - an Expect header other than 100-continue, which Node never passes on either: 417.
 *
 * How long a connection may stay open without sending anything, and who gets a place once
 * MAX_CONNECTIONS are open, is connection-slots.ts's.
 *
 * The TLS refusals are logged: a failed handshake with its reason (no
 * certificate, unknown CA, expired...), and a certificate that passes the
 * handshake but breaks an on-boarding rule (see auth/client-certificate.ts),
 * with the rule and the certificate's SHA-256 fingerprint. Such a connection
 * is then answered 403 on every request (plugins/identity.ts), so its caller learns why.
 */
import {
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  createServer as createHttpServer,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket, Server as TlsServer } from 'node:tls';
import { randomUUID } from 'node:crypto';
import { type FastifyBaseLogger, type FastifyServerOptions, LogController } from 'fastify';
import { presentedCertificate } from '../auth/client-certificate.ts';
import type { ConnectionLimits } from '../config/server.ts';
import type { TlsConfig } from '../config/tls.ts';
import { guardConnections } from './connection-slots.ts';
import { securityHeaders } from './headers.ts';

export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_URL_LENGTH = 8 * 1024;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Answers a request before Fastify routes it and says so, or returns false to leave it to Fastify. */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface Transport {
  /** Fastify's `serverFactory`. */
  readonly serverFactory: (handler: Handler, options: FastifyServerOptions) => Server;
  /** Fastify's `clientErrorHandler`: what the parser refused (431, 400, 408). */
  readonly clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => void;
  /** Logs the server's refusals to the app's logger, which exists only once the server does. */
  attach(server: Server, log: FastifyBaseLogger): void;
  /** Answers what `early` answers before Fastify sees it (status-lists.ts), once the refusals above have passed it. */
  answerEarly(early: EarlyAnswer): void;
}

/**
 * The Fastify options the API and the pages' process share: their transport, their logger, and
 * request ids of their own. Request URLs carry names and dates, so Fastify's own request lines
 * (which would log them) are off.
 */
export const serverOptions = (
  transport: Transport,
  tls: boolean,
  logger: FastifyServerOptions['loggerInstance'] | undefined,
  level: string,
) =>
  ({
    serverFactory: transport.serverFactory,
    clientErrorHandler: transport.clientErrorHandler,
    // The server is the factory's; this only makes Fastify name its addresses https://.
    ...(tls ? { https: true } : {}),
    ...(logger ? { loggerInstance: logger } : { logger: { level } }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
  }) as const;

const answer = (code: string, message: string, tls: boolean, extra: Record<string, string> = {}) => {
  const body = JSON.stringify({ code, message });
  const headers = {
    ...securityHeaders('', tls),
    ...extra,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  return { body, headers };
};

/** The same answer written on a socket no request object stands for (the parser's refusals, CONNECT). */
const rawAnswer = (status: number, code: string, message: string, tls: boolean, extra: Record<string, string> = {}) => {
  const { body, headers } = answer(code, message, tls, extra);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`;
};

/**
 * RFC 9112 section 3.2: an HTTP/1.1 request has exactly one Host header. Node's own check answers a
 * missing one with a bare 400 (no body, none of the security headers) and keeps the first of two,
 * so the check is made here instead, answered like every other refusal.
 */
function hostProblem(request: IncomingMessage): string | undefined {
  let hosts = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i].toLowerCase() === 'host') hosts++;
  if (hosts > 1) return 'The request has more than one Host header';
  if (hosts === 0 && request.httpVersion === '1.1') return 'An HTTP/1.1 request needs a Host header';
  return undefined;
}

/** Node's defaults for what the configuration does not say (tests building an app of their own). */
const UNLIMITED: ConnectionLimits = {
  requestTimeoutMs: 300_000,
  headersTimeoutMs: 60_000,
  keepAliveTimeoutMs: 72_000,
  maxConnections: Infinity,
};

export function createTransport(tls: TlsConfig | undefined, limits: ConnectionLimits = UNLIMITED): Transport {
  let log: FastifyBaseLogger | undefined;
  let early: EarlyAnswer | undefined;
  const secure = Boolean(tls);

  const refuse = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    code: string,
    message: string,
  ) => {
    const { body, headers } = answer(code, message, secure);
    response.writeHead(status, headers).end(body);
    // Never the URL: it holds the names searched for.
    log?.info({ route: 'unrouted', method: request.method, status }, 'request');
  };
  const refuseLongUrl = (request: IncomingMessage, response: ServerResponse) =>
    refuse(request, response, 414, 'URITooLong', `The URL is longer than ${MAX_URL_LENGTH} characters`);

  const serverOptions = {
    maxHeaderSize: MAX_HEADER_BYTES,
    requireHostHeader: false,
    // A request, and its headers, must arrive within their deadlines, checked this often: a client
    // trickling bytes cannot hold a connection for ever (the parser's 408, in clientErrorHandler).
    requestTimeout: limits.requestTimeoutMs,
    headersTimeout: limits.headersTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    // A TLS client that connects and never finishes its handshake is held no longer than one that
    // connects and sends no request (Node's default is 120 s).
    handshakeTimeout: limits.headersTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  };

  return {
    serverFactory(handler) {
      let slots: ReturnType<typeof guardConnections> | undefined;
      const guarded: Handler = (request, response) => {
        if (slots && !slots.admit(request, response)) {
          refuse(
            request,
            response,
            503,
            'ServiceUnavailable',
            'Every connection the service accepts is busy: try again shortly',
          );
        } else if ((request.url?.length ?? 0) > MAX_URL_LENGTH) refuseLongUrl(request, response);
        else if (hostProblem(request)) refuse(request, response, 400, 'BadRequest', hostProblem(request)!);
        else if (!early?.(request, response)) handler(request, response);
      };
      const server: Server = tls
        ? (createHttpsServer(
            {
              cert: tls.cert,
              key: tls.key,
              minVersion: 'TLSv1.2',
              ...serverOptions,
              ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
            },
            guarded,
          ) as unknown as Server)
        : createHttpServer(serverOptions, guarded);
      server.keepAliveTimeout = limits.keepAliveTimeoutMs;
      // Node answers an Expect other than 100-continue with a bare 417, no body and none of the
      // security headers, unless a listener answers it: the usual refusal instead.
      server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) =>
        refuse(
          request,
          response,
          417,
          'ExpectationFailed',
          'The service meets no expectation but 100-continue: send the request without this Expect header',
        ),
      );
      // Node hands a CONNECT to a 'connect' listener, never to the request handler, and with none it
      // closes the connection unanswered. No path of this service is a proxy: 405, as for any method
      // a path does not have.
      server.on('connect', (request: IncomingMessage, socket: Socket) => {
        log?.info({ route: 'unrouted', method: request.method, status: 405 }, 'request');
        socket.on('error', () => {});
        socket.end(rawAnswer(405, 'MethodNotAllowed', 'CONNECT is not allowed', secure, { allow: 'GET, HEAD' }), () =>
          socket.destroy(),
        );
      });
      slots = guardConnections(server, limits, secure);
      return server;
    },

    clientErrorHandler(error, socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, code, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [
              431,
              'RequestHeaderFieldsTooLarge',
              `The request line and headers are longer than ${MAX_HEADER_BYTES} bytes`,
            ]
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'RequestTimeout', 'The request did not arrive in time']
            : [400, 'BadRequest', 'The request could not be read'];
      log?.info({ route: 'unrouted', status, err: { code: error.code } }, 'request');
      if (socket.writable) socket.write(rawAnswer(status, code, message, secure));
      socket.destroy();
    },

    answerEarly(answer) {
      early = answer;
    },

    attach(server, logger) {
      log = logger;
      if (!tls) return;
      const tlsServer = server as unknown as TlsServer;
      if (tls.clientCa)
        tlsServer.on('secureConnection', (socket: TLSSocket) => {
          const certificate = presentedCertificate(socket);
          if (certificate?.problem) {
            logger.warn(
              {
                tls: { rule: certificate.problem.rule, fingerprint: certificate.fingerprint },
                reason: certificate.problem.detail,
              },
              'client certificate refused: it breaks an on-boarding rule',
            );
          }
        });
      tlsServer.on('tlsClientError', (error: Error & { code?: string }, socket: TLSSocket) => {
        // Node completes the handshake, then drops a connection whose certificate fails verification:
        // the reason is then the socket's authorizationError, and the error only says the socket closed.
        const reason = socket.authorizationError ? String(socket.authorizationError) : error.code;
        const refused = Boolean(socket.authorizationError) || Boolean(error.code?.startsWith('ERR_SSL'));
        logger[refused ? 'warn' : 'debug']({ tls: { reason } }, 'TLS handshake refused');
        socket.destroy();
      });
    },
  };
}
