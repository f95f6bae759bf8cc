/**
 * The deadlines and the connection cap of the listening server, over real
 * sockets, with deadlines of a second or two so that the tests stay short:
 * a client trickling its headers gets 408 and is closed; one trickling a body
 * it announced is closed at the whole-request deadline; a connection beyond
 * MAX_CONNECTIONS is closed as soon as it is accepted.
 */
import assert from 'node:assert/strict';
import { type Socket, connect } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_CSP } from '../../src/http/headers.ts';
import { type RunningApp, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';

const context = suiteContext();
const started = new Map<string, Promise<RunningApp>>();
/** An app with these settings, started once for the file. */
const appWith = (env: Record<string, string>) => {
  const key = JSON.stringify(env);
  if (!started.has(key)) started.set(key, filledStore(context, 'embedded').then((store) => startApp(context, store, testConfig(env))));
  return started.get(key) as Promise<RunningApp>;
};

interface Connection {
  readonly socket: Socket;
  /** Everything received until the server closed the connection, and when (ms after connecting). */
  readonly closed: Promise<{ answer: string; afterMs: number }>;
}

function open(app: RunningApp): Promise<Connection> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    const since = Date.now();
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise<{ answer: string; afterMs: number }>((done) => socket.on('close', () => done({ answer, afterMs: Date.now() - since })));
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
  });
}

/** Writes `text` a few bytes at a time, every `everyMs`, until the connection closes or `forMs` have passed. */
async function trickle(connection: Connection, text: string, everyMs: number, forMs: number) {
  const stop = Date.now() + forMs;
  for (let at = 0; at < text.length && Date.now() < stop && !connection.socket.destroyed; at += 2) {
    connection.socket.write(text.slice(at, at + 2));
    await sleep(everyMs);
  }
}

/** The connection's end, or undefined when it is still open after `ms`. */
const closedWithin = (connection: Connection, ms: number) =>
  Promise.race([connection.closed, sleep(ms).then(() => undefined)]);

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

test('headers sent slower than HEADERS_TIMEOUT_S get 408 with the usual body, and the connection is closed', async () => {
  const app = await appWith({ HEADERS_TIMEOUT_S: '1', REQUEST_TIMEOUT_S: '2' });
  const connection = await open(app);
  const headers = `GET /healthz HTTP/1.1\r\nHost: x\r\nx-padding: ${'p'.repeat(200)}\r\n\r\n`;
  void trickle(connection, headers, 100, 5000);
  const end = await closedWithin(connection, 4000);
  connection.socket.destroy();
  assert.ok(end, 'closed by the server');
  assert.match(end.answer, /^HTTP\/1\.1 408 Request Timeout\r\n/);
  assert.match(end.answer, /\r\ncache-control: no-store\r\n/);
  assert.ok(end.answer.includes(`\r\ncontent-security-policy: ${API_CSP}\r\n`));
  assert.deepEqual(bodyOf(end.answer), { code: 'RequestTimeout', message: 'The request did not arrive in time' });
  assert.ok(end.afterMs >= 900, `not before the deadline: ${end.afterMs} ms`);
});

test('a body trickled slower than REQUEST_TIMEOUT_S is cut off at the deadline (Content-Length: 100000, 2 bytes at a time)', async () => {
  const app = await appWith({ HEADERS_TIMEOUT_S: '1', REQUEST_TIMEOUT_S: '2' });
  for (const method of ['GET', 'POST']) {
    const connection = await open(app);
    connection.socket.write(`${method} /healthz HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`);
    void trickle(connection, 'x'.repeat(100_000), 200, 6000);
    const end = await closedWithin(connection, 4500);
    connection.socket.destroy();
    assert.ok(end, `${method}: closed by the server`);
    assert.ok(end.afterMs >= 1900, `${method}: not before the deadline: ${end.afterMs} ms`);
  }
});

test('a request sent in time is served however the deadlines are set', async () => {
  const app = await appWith({ HEADERS_TIMEOUT_S: '1', REQUEST_TIMEOUT_S: '2' });
  const connection = await open(app);
  await trickle(connection, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', 20, 5000);
  const end = await closedWithin(connection, 3000);
  assert.ok(end);
  assert.match(end.answer, /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nOK$/);
});

test('a connection beyond MAX_CONNECTIONS is closed unanswered; once one closes, a new one is served', async () => {
  const app = await appWith({ MAX_CONNECTIONS: '2' });
  const held = [await open(app), await open(app)];
  // The server counts a connection once it has accepted it: a request on each makes sure it has.
  for (const connection of held) connection.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
  await sleep(200);
  const extra = await open(app);
  extra.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const refused = await closedWithin(extra, 2000);
  assert.ok(refused, 'closed by the server');
  assert.equal(refused.answer, '', 'unanswered');
  for (const connection of held) connection.socket.destroy();
  await Promise.all(held.map((connection) => connection.closed));
  await sleep(200);
  const next = await open(app);
  next.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  const served = await closedWithin(next, 2000);
  assert.match(served?.answer ?? '', /^HTTP\/1\.1 200 OK\r\n/);
});
