/**
 * What a connection may take of the server: a whole request within REQUEST_TIMEOUT_S, its headers
 * within HEADERS_TIMEOUT_S (a slow client gets 408 and is disconnected), and no more than
 * MAX_CONNECTIONS open at once. Over real sockets: the transport is the subject.
 */
import assert from 'node:assert/strict';
import { type Socket, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, test } from 'node:test';
import { type RunningApp, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';

const context = suiteContext();
let app: RunningApp;
before(async () => {
  app = await startApp(context, await filledStore(context, 'memory'), testConfig({ REQUEST_TIMEOUT_S: '2', HEADERS_TIMEOUT_S: '1', MAX_CONNECTIONS: '3' }));
});

/** A connection that records what it is sent and when it closes. */
async function open(): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const { port } = new URL(app.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  socket.on('error', () => {});
  const started = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  return { socket, received: () => text, closed };
}

/** Writes `bytes` a piece at a time, `every` ms apart, until the socket closes or `max` pieces went. */
async function trickle(socket: Socket, piece: string, every: number, max: number) {
  for (let i = 0; i < max && !socket.destroyed; i++) {
    socket.write(piece);
    await sleep(every);
  }
}

test('a body trickled in slower than REQUEST_TIMEOUT_S allows: 408 with the usual body, then disconnected', async () => {
  const { socket, received, closed } = await open();
  socket.write(
    'POST /v1/registration/birth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n' +
      'X-Auth-Username: a\r\nX-Auth-Aud: b\r\n\r\n',
  );
  void trickle(socket, '  ', 500, 40);
  const ms = await closed;
  assert.ok(ms < 5000, `disconnected after ${ms} ms, within the 2 s deadline and a check interval`);
  assert.match(received(), /^HTTP\/1\.1 408 /);
  assert.deepEqual(JSON.parse(received().slice(received().indexOf('\r\n\r\n') + 4)), {
    code: 'RequestTimeout',
    message: 'The request did not arrive in time',
  });
  assert.match(received(), /\r\nx-content-type-options: nosniff\r\n/i);
});

test('headers trickled in slower than HEADERS_TIMEOUT_S allows: 408, then disconnected', async () => {
  const { socket, received, closed } = await open();
  socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
  void trickle(socket, 'X-A: b\r\n', 300, 40);
  const ms = await closed;
  assert.ok(ms < 4000, `disconnected after ${ms} ms`);
  assert.match(received(), /^HTTP\/1\.1 408 /);
});

test('a connection beyond MAX_CONNECTIONS is closed at once; one is accepted again when another closes', async () => {
  const held = [await open(), await open(), await open()];
  await sleep(100);
  const extra = await open();
  const ms = await extra.closed;
  assert.ok(ms < 1000, `the fourth connection was closed (${ms} ms)`);
  assert.equal(extra.received(), '', 'without an answer');
  for (const { socket } of held) assert.ok(!socket.destroyed, 'the first three stay open');
  held[0].socket.destroy();
  await held[0].closed;
  await sleep(100);
  const again = await open();
  again.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await again.closed;
  assert.match(again.received(), /^HTTP\/1\.1 200 /);
  for (const { socket } of held) socket.destroy();
});
