/**
 * Webhook receivers for the tests: real HTTP (or HTTPS) servers on loopback that keep every
 * request they are sent and answer as the test says.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { TestContext } from 'node:test';
import type { WebhooksConfig } from '../../src/config/events.ts';

export interface Received {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly id: string;
  /** The event's position, from its body. */
  readonly position: number;
  /** What the receiver answered. */
  readonly status: number;
  /** When it arrived (ms). */
  readonly at: number;
  /** The subject of the client certificate presented, over HTTPS. */
  readonly clientCertificate?: string;
}

/** Answers a status (and headers); undefined holds the request open until the connection goes. */
export type Answer = (request: {
  id: string;
  position: number;
  count: number;
}) => { status: number; headers?: Record<string, string>; delayMs?: number } | undefined;

export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  answer: Answer;
  /** The 2xx'd events' positions, in the order taken. */
  taken(): number[];
}

export async function startReceiver(
  t: Pick<TestContext, 'after'>,
  tls?: ServerOptions,
  path = '/hook',
): Promise<Receiver> {
  const received: Received[] = [];
  const held: IncomingMessage[] = [];
  const receiver: Receiver = {
    url: '',
    received,
    answer: () => ({ status: 204 }),
    taken: () => received.filter((r) => r.status >= 200 && r.status < 300).map((r) => r.position),
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const id = String(request.headers['webhook-id']);
      const position = Number(JSON.parse(body).id);
      const answer = receiver.answer({ id, position, count: received.length });
      if (!answer) return void held.push(request); // held until the connection is cut
      const peer = (request.socket as TLSSocket).getPeerCertificate?.();
      received.push({
        headers: Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)])),
        body,
        id,
        position,
        status: answer.status,
        at: Date.now(),
        ...(peer?.subject ? { clientCertificate: String(peer.subject.CN) } : {}),
      });
      const reply = () => {
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers ?? {});
        response.end(answer.status >= 400 ? 'an error page the service must never log: Jane Doe 1970-01-01' : '');
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  };
  const server = tls ? createHttpsServer(tls, handle) : createHttpServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  (receiver as { url: string }).url = `${tls ? 'https://localhost' : 'http://127.0.0.1'}:${port}${path}`;
  return receiver;
}

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Delivery settings for tests: plain http to loopback, short timeout and lease. */
export const SETTINGS: WebhooksConfig = {
  delivery: true,
  timeoutMs: 2000,
  retryMs: 60_000,
  leaseMs: 5000,
  turnMs: 5000,
  slowShare: 0.5,
  allowHttpLoopback: true,
  allowedNetworks: [],
  mockUrls: [],
};
