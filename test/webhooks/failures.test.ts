/**
 * Why an attempt failed, over real sockets, in the documented vocabulary (src/webhooks/failures.ts):
 * each lastError starts with its kind, and a timeout says the setting's seconds rather than the
 * number an AbortSignal's DOMException carries as its code.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { destinationPolicy } from '../../src/webhooks/destination.ts';
import { FAILURE_KINDS } from '../../src/webhooks/failures.ts';
import { createSender } from '../../src/webhooks/send.ts';
import { startReceiver } from './receiver.ts';

const checker = destinationPolicy({ allowHttpLoopback: true, allowedNetworks: [] });

test(
  'each failure is reported by its kind: timeout, refused, reset, status, redirect not followed, address ' +
    'not allowed',
  async (t) => {
    const sender = createSender({ checker, timeoutMs: 300 });
    t.after(() => sender.close());
    const send = (url: string) => sender.send({ url }, {}, '{"id":"1"}');

    const silent = await startReceiver(t);
    silent.answer = () => undefined;
    assert.deepEqual(await send(silent.url), { error: 'timeout: no answer within 0.3 s' });

    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port: closedPort } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    assert.match(
      (await send(`http://127.0.0.1:${closedPort}/hook`)).error!,
      /^refused: the receiver refused the connection/,
    );

    // A receiver that drops the connection once the request arrives.
    const dropping = createServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => dropping.close(resolve)));
    assert.match(
      (await send(`http://127.0.0.1:${(dropping.address() as AddressInfo).port}/hook`)).error!,
      /^reset: the connection was closed before an answer/,
    );

    const failing = await startReceiver(t);
    failing.answer = () => ({ status: 500 });
    assert.deepEqual(await send(failing.url), { status: 500, error: 'status 500: the receiver answered 500' });
    failing.answer = () => ({ status: 302 });
    assert.equal((await send(failing.url)).error, 'redirect not followed: the receiver answered 302');
    assert.match(
      (await send('https://10.0.0.1/hook')).error!,
      /^address not allowed: 10\.0\.0\.1 is a private address/,
    );
  },
);

test('the vocabulary is the one docs/events.md lists', async () => {
  const { readFile } = await import('node:fs/promises');
  const page = await readFile(new URL('../../docs/events.md', import.meta.url), 'utf8');
  const section = page.slice(page.indexOf('### Why an attempt failed'));
  for (const kind of FAILURE_KINDS) assert.ok(section.includes(`\`${kind}`), `docs/events.md names ${kind}`);
});
