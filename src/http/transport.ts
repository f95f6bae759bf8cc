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
import type { TlsConfig } from '../config.ts';
import { securityHeaders } from './headers.ts';

export const MAX_HEADER_BYTES = 16 * 1024;
export const MAX_URL_LENGTH = 8 * 1024;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface Transport {
  /** Fastify's `serverFactory`. */
  readonly serverFactory: (handler: Handler, options: FastifyServerOptions) => Server;
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

export function createTransport(tls: TlsConfig | undefined): Transport {
  let log: FastifyBaseLogger | undefined;
  const secure = Boolean(tls);

  const refuseLongUrl = (request: IncomingMessage, response: ServerResponse) => {
    const { body, headers } = answer(414, 'URITooLong', `The URL is longer than ${MAX_URL_LENGTH} characters`, secure);
    response.writeHead(414, headers).end(body);
    // Never the URL: it holds the names searched for.
    log?.info({ route: 'unrouted', method: request.method, status: 414 }, 'request');
  };

  return {
    serverFactory(handler, options) {
      const guarded: Handler = (request, response) => {
        if ((request.url?.length ?? 0) > MAX_URL_LENGTH) refuseLongUrl(request, response);
        else handler(request, response);
      };
      const server: Server = tls
        ? (createHttpsServer(
            {
              cert: tls.cert,
              key: tls.key,
              minVersion: 'TLSv1.2',
              maxHeaderSize: MAX_HEADER_BYTES,
              ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true } : {}),
            },
            guarded,
          ) as unknown as Server)
        : createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES }, guarded);
      // What Fastify sets on the servers it makes itself.
      server.keepAliveTimeout = options.keepAliveTimeout ?? 72_000;
      server.requestTimeout = options.requestTimeout ?? 0;
      server.setTimeout(options.connectionTimeout ?? 0);
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
      if (socket.writable) {
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
