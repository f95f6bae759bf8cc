/**
 * What a connection may take of the server: a whole request within REQUEST_TIMEOUT_S, its headers
 * within HEADERS_TIMEOUT_S (a slow client gets 408 and is disconnected), its first byte within
 * HEADERS_TIMEOUT_S too, no more than KEEP_ALIVE_TIMEOUT_S idle between requests, and no more than
 * MAX_CONNECTIONS open at once, which idle connections alone cannot fill. Over real sockets: the
 * transport is the subject.
 */
import assert from 'node:assert/strict';
import { type Socket, connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, test } from 'node:test';
import { type RunningApp, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';

const context = suiteContext();
let app: RunningApp;
before(async () => {
  app = await startApp(
    context,
    await filledStore(context, 'memory'),
    testConfig({ REQUEST_TIMEOUT_S: '2', HEADERS_TIMEOUT_S: '1', KEEP_ALIVE_TIMEOUT_S: '1', MAX_CONNECTIONS: '3' }),
  );
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

test(
  'a body trickled in slower than REQUEST_TIMEOUT_S ' + 'allows: 408 with the usual body, then disconnected',
  async () => {
    const { socket, received, closed } = await open();
    socket.write(
      'POST /v1/registration/birth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ' +
        '100000\r\n' +
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
  },
);

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

/** One request on a connection, read up to the end of its answer (Content-Length), the connection kept. */
async function ask(connection: Awaited<ReturnType<typeof open>>, path: string): Promise<string> {
  const before = connection.received().length;
  connection.socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  for (let waited = 0; waited < 5000; waited += 10) {
    const text = connection.received().slice(before);
    const end = text.indexOf('\r\n\r\n');
    const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text)?.[1];
    if (end >= 0 && length !== undefined && text.length >= end + 4 + Number(length)) return text;
    await sleep(10);
  }
  throw new Error(`no whole answer to ${path} within 5 s`);
}

test('a connection that sends nothing is closed once HEADERS_TIMEOUT_S has passed, unanswered', async () => {
  const { received, closed } = await open();
  const ms = await Promise.race([closed, sleep(5000, -1)]);
  assert.ok(ms >= 900 && ms < 2500, `closed after ${ms} ms: the 1 s header deadline runs from the connection's start`);
  assert.equal(received(), '');
});

test('a connection idle between requests is closed after KEEP_ALIVE_TIMEOUT_S', async () => {
  const connection = await open();
  assert.match(await ask(connection, '/healthz'), /^HTTP\/1\.1 200 [\s\S]*\r\nkeep-alive: timeout=1\r\n/i);
  const answered = Date.now();
  assert.match(await ask(connection, '/healthz'), /^HTTP\/1\.1 200 /, 'kept alive for a second request');
  await Promise.race([connection.closed, sleep(6000)]);
  const idle = Date.now() - answered;
  assert.ok(connection.socket.destroyed, 'closed');
  assert.ok(idle >= 900 && idle < 4000, `closed ${idle} ms after its last answer (1 s, and Node's 1 s grace)`);
});

test(
  'silent connections beyond MAX_CONNECTIONS: a client that sends its request is still answered, and the ' +
    'silent ones are closed within the deadline',
  async () => {
    // Twice the limit, every one silent: before, the first three filled every place for ever.
    const silent = [];
    for (let i = 0; i < 6; i++) silent.push(await open());
    await sleep(100);
    for (let probe = 0; probe < 3; probe++) {
      const client = await open();
      assert.match(
        await ask(client, '/healthz'),
        /^HTTP\/1\.1 200 /,
        `probe ${probe} answered while silent connections are held`,
      );
      client.socket.destroy();
      await client.closed;
    }
    const times = await Promise.race([
      Promise.all(silent.map((connection) => connection.closed)),
      sleep(5000, [] as number[]),
    ]);
    assert.equal(times.length, silent.length, 'every silent connection was closed within 5 s');
    for (const ms of times)
      assert.ok(ms < 2500, `a silent connection closed after ${ms} ms, within the 1 s header deadline`);
    for (const { received } of silent) assert.equal(received(), '', 'unanswered');
  },
);

test(
  'when every place has a request in progress, a new request is answered 503 rather than taking one; ' +
    '/healthz, /readiness and /metrics are still answered',
  async () => {
    const busy = [];
    for (let i = 0; i < 3; i++) {
      const connection = await open();
      // Headers whole, body not: the request is in progress until its body comes or its deadline passes.
      connection.socket.write(
        'POST /v1/registration/birth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ' +
          '1000\r\nX-Auth-Username: a\r\nX-Auth-Aud: b\r\n\r\n{',
      );
      busy.push(connection);
    }
    await sleep(100);
    const late = await open();
    const answer = await ask(late, '/v1/registration/birth/123456789');
    assert.match(answer, /^HTTP\/1\.1 503 /);
    assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), {
      code: 'ServiceUnavailable',
      message: 'Every connection the service accepts is busy: try again shortly',
    });
    // A liveness probe, a readiness probe and a scraper are answered on places kept for them, each
    // connection closed after its answer so nothing else rides on it.
    for (const path of ['/healthz', '/readiness', '/metrics', '/healthz?again']) {
      const probe = await open();
      assert.match(await ask(probe, path), /^HTTP\/1\.1 200 [\s\S]*\r\nconnection: close\r\n/i, path);
      await Promise.race([probe.closed, sleep(2000)]);
      assert.ok(probe.socket.destroyed, `${path}: closed after its answer`);
    }
    for (const { socket } of busy) assert.ok(!socket.destroyed, 'no request in progress was cut off');
    for (const { socket } of [...busy, late]) socket.destroy();
  },
);
