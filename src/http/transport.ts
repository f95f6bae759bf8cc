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
 *   character percent-encoded, is under 6,000.
 * - an HTTP/1.1 request without a Host header, or any request with more than
 *   one (RFC 9112 section 3.2): 400;
 * - a client slower than HEADERS_TIMEOUT_S to send its request line and
 *   headers, or than REQUEST_TIMEOUT_S to send its whole request: 408, and
 *   the connection is closed (a client trickling a body it announced holds
 *   nothing for ever);
 * - a connection beyond MAX_CONNECTIONS open at once: closed when accepted.
 *
 * The TLS refusals are logged: a failed handshake with its reason (no
 * certificate, unknown CA, expired...), and a certificate that passes the
 * handshake but breaks an on-boarding rule (see auth/client-certificate.ts),
 * with the rule and the certificate's SHA-256 fingerprint. Such a connection
 * is then answered 403 on every request (app.ts), so its caller learns why.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse, createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket, Server as TlsServer } from 'node:tls';
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import { presentedCertificate } from '../auth/client-certificate.ts';
import type { TlsConfig, TransportConfig } from '../config.ts';
import { securityHeaders } from './headers.ts';

export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_URL_LENGTH = 8 * 1024;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface Transport {
  /** Fastify's `serverFactory`. */
  readonly serverFactory: (handler: Handler) => Server;
  /** Fastify's `clientErrorHandler`: what the parser refused (431, 400, 408). */
  readonly clientErrorHandler: (error: Error & { code?: string }, socket: Socket) => void;
  /** Logs the server's refusals to the app's logger, which exists only once the server does. */
  attach(server: Server, log: FastifyBaseLogger): void;
}

const answer = (status: number, code: string, message: string, tls: boolean) => {
  const body = JSON.stringify({ code, message });
  const headers = { ...securityHeaders('', tls), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
  return { body, headers };
};

/** How many Host headers a request has (Node keeps only the first in `headers`). */
function hostHeaders(request: IncomingMessage): number {
  let count = 0;
  for (let i = 0; i < request.rawHeaders.length; i += 2) if (request.rawHeaders[i].toLowerCase() === 'host') count++;
  return count;
}

/** Why the request is refused before routing, or undefined when it may go on. */
function refusal(request: IncomingMessage): [number, string, string] | undefined {
  if ((request.url?.length ?? 0) > MAX_URL_LENGTH) return [414, 'URITooLong', `The URL is longer than ${MAX_URL_LENGTH} characters`];
  const hosts = hostHeaders(request);
  if (hosts > 1) return [400, 'BadRequest', 'The request has more than one Host header'];
  if (hosts === 0 && request.httpVersion === '1.1') return [400, 'BadRequest', 'An HTTP/1.1 request needs a Host header'];
  return undefined;
}

export function createTransport(tls: TlsConfig | undefined, limits: TransportConfig): Transport {
  let log: FastifyBaseLogger | undefined;
  const secure = Boolean(tls);

  const refuse = (request: IncomingMessage, response: ServerResponse, [status, code, message]: [number, string, string]) => {
    const { body, headers } = answer(status, code, message, secure);
    response.writeHead(status, headers).end(body);
    // Never the URL: it holds the names searched for.
    log?.info({ route: 'unrouted', method: request.method, status }, 'request');
  };

  return {
    serverFactory(handler) {
      const guarded: Handler = (request, response) => {
        const refused = refusal(request);
        if (refused) refuse(request, response, refused);
        else handler(request, response);
      };
      const serverOptions = {
        maxHeaderSize: MAX_HEADER_BYTES,
        // Checked here, so that the answer is JSON with the security headers (Node's own 400 has neither).
        requireHostHeader: false,
        requestTimeout: limits.requestTimeoutMs,
        headersTimeout: limits.headersTimeoutMs,
        // How often Node looks for requests past their deadline (30 s by default, longer than the deadlines).
        connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs / 2),
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
      // Longer than the idle timeouts of the usual load balancers (60 s), so that they close first.
      server.keepAliveTimeout = 72_000;
      // A connection on which nothing moves for this long is closed, whatever it is doing (a client not reading its answer).
      server.setTimeout(limits.requestTimeoutMs);
      server.maxConnections = limits.maxConnections;
      return server;
    },

    clientErrorHandler(error, socket) {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      const [status, code, message] =
        error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'RequestHeaderFieldsTooLarge', `The request line and headers are longer than ${MAX_HEADER_BYTES} bytes`]
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, 'RequestTimeout', 'The request did not arrive in time']
            : [400, 'BadRequest', 'The request could not be read'];
      log?.info({ route: 'unrouted', status, err: { code: error.code } }, 'request');
      // Past its deadline after its answer started (a body still trickling in): the answer cannot be replaced.
      const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
      if (socket.writable && !answering) {
        const { body, headers } = answer(status, code, message, secure);
        const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
        socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines.join('')}\r\n${body}`);
      }
      socket.destroy();
    },

    attach(server, logger) {
      log = logger;
      if (!tls) return;
      const tlsServer = server as unknown as TlsServer;
      if (tls.clientCa) tlsServer.on('secureConnection', (socket: TLSSocket) => {
        const certificate = presentedCertificate(socket);
        if (certificate?.problem) {
          logger.warn(
            { tls: { rule: certificate.problem.rule, fingerprint: certificate.fingerprint }, reason: certificate.problem.detail },
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
