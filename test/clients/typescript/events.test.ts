/**
 * The typed client's change-feed iterator against the running service over a socket, on every
 * store: it follows next, waits for new events, resumes after failures with back-off, stops on
 * its signal (a waiting request included), and throws what the caller must act on (410).
 */
import assert from 'node:assert/strict';
import { type Server, createServer, request as httpRequest } from 'node:http';
import { once } from 'node:events';
import { test } from 'node:test';
import { type FeedEvent, LevApiError, createLevClient, mockAuth } from '@lev-api/client';
import type { StoredRecord } from '../../../src/model/records.ts';
import { emptyStore, recordTypes, startApp, storeKinds } from '../../helper.ts';

const deathType = recordTypes().find((type) => type.description.name === 'death')!;
const death = (id: number) => {
  const stored = deathType.toStored({
    id,
    deceased: { forenames: 'Iter', surname: 'Ator', dateOfDeath: '2021-01-01' },
    status: { blocked: false },
  });
  return stored as StoredRecord;
};
const auth = mockAuth({ username: 'feed-reader', client: 'feed-tests', roles: [], groups: [] });

/** A proxy to `target` that fails the first `failures` requests by cutting their connection. */
async function flakyProxy(
  target: string,
  failures: number,
): Promise<{ url: string; server: Server; seen: () => number }> {
  let seen = 0;
  const server = createServer((request, response) => {
    seen++;
    if (seen <= failures) return request.socket.destroy();
    const forwarded = httpRequest(
      target + request.url,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server, seen: () => seen };
}

for (const kind of await storeKinds()) {
  test(`client.events follows the feed (${kind})`, async (t) => {
    const store = await emptyStore(t, kind);
    await store.upsert('death', [death(1), death(2), death(3)]);
    const app = await startApp(t, store);

    await t.test(
      'reads every event once, in order, waits for new ones, and stops on its signal while waiting',
      async () => {
        const lev = createLevClient({ baseUrl: app.url, auth });
        const controller = new AbortController();
        const seen: FeedEvent[] = [];
        const reading = (async () => {
          for await (const event of lev.events({ signal: controller.signal, limit: 2, wait: 30 })) {
            seen.push(event);
            if (seen.length === 3) setTimeout(() => store.upsert('death', [death(4)]), 200);
          }
        })();
        const started = Date.now();
        while (seen.length < 4 && Date.now() - started < 10_000)
          await new Promise((resolve) => setTimeout(resolve, 50));
        assert.deepEqual(
          seen.map((e) => e.subject),
          ['1', '2', '3', '4'],
        );
        assert.deepEqual(
          seen.map((e) => e.type),
          Array(4).fill('death.registered'),
        );
        // The reader is now waiting on the server; aborting ends the loop at once, without an error.
        const aborted = Date.now();
        controller.abort();
        await reading;
        assert.ok(Date.now() - aborted < 2000);
      },
    );

    await t.test('resumes after a failure with back-off, from where it was', async (t) => {
      const proxy = await flakyProxy(app.url, 2);
      t.after(() => proxy.server.close());
      const lev = createLevClient({ baseUrl: proxy.url, auth, retry: { attempts: 1 } });
      const controller = new AbortController();
      const seen: string[] = [];
      for await (const event of lev.events({
        after: '2',
        signal: controller.signal,
        wait: 1,
        backoff: { baseDelayMs: 50, maxDelayMs: 100 },
      })) {
        seen.push(event.subject);
        if (seen.length === 2) controller.abort();
      }
      assert.deepEqual(seen, ['3', '4']);
      assert.ok(proxy.seen() >= 3, 'the failed requests were made again');
    });

    await t.test('a position no longer kept is thrown as 410 CursorExpired; since starts again', async () => {
      await store.events.prune(new Date(Date.now() + 1000));
      await store.upsert('death', [death(5)]);
      const lev = createLevClient({ baseUrl: app.url, auth });
      const failure = await (async () => {
        for await (const _ of lev.events({ after: '1', wait: 0 })) assert.fail('no event is read');
      })().catch((error) => error);
      assert.ok(failure instanceof LevApiError);
      assert.equal(failure.status, 410);
      assert.equal(failure.code, 'CursorExpired');
      const controller = new AbortController();
      for await (const event of lev.events({ since: '2000-01-01', signal: controller.signal, wait: 1 })) {
        assert.equal(event.subject, '5');
        controller.abort();
      }
    });
  });
}
