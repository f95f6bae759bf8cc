/**
 * Readers of the change feed held open with `wait` cannot take every connection, on the real
 * PostgreSQL server: one client opening more waiting reads than MAX_CONNECTIONS gets its
 * FEED_MAX_WAITING_PER_CLIENT and a 429 with Retry-After for each of the rest, all clients
 * together hold at most FEED_WAITING_SHARE of the places (503 beyond), and meanwhile a lookup and
 * /healthz are answered at once.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import pino from 'pino';
import { Agent, request } from 'undici';
import { loadSources } from '../../src/load/loader.ts';
import { deaths } from '../death-source.ts';
import { emptyStore, postgresAvailable, startApp, storeKinds, testConfig } from '../helper.ts';
import { builtInType } from '../record-types.ts';

const skip = !(await postgresAvailable()) && 'no PostgreSQL server';

const as = (client: string) => ({
  'x-auth-username': `${client}-user`,
  'x-auth-aud': client,
  'x-auth-roles': 'death,birth',
});
test('one client holding more waiting reads than MAX_CONNECTIONS shuts nobody out', {
  skip,
  timeout: 60_000,
}, async (t) => {
  const store = await emptyStore(t, 'postgres');
  const app = await startApp(
    t,
    store,
    testConfig({ MAX_CONNECTIONS: '10', FEED_MAX_WAITING_PER_CLIENT: '3', FEED_WAITING_SHARE: '50' }),
  );
  // A connection a request, as a client opening many would.
  const agent = new Agent({ connections: 64, pipelining: 0 });
  t.after(() => agent.close());
  const get = async (path: string, headers: Record<string, string>) => {
    const answer = await request(app.url + path, { headers, dispatcher: agent, reset: true });
    return {
      status: answer.statusCode,
      headers: answer.headers,
      body: (await answer.body.json().catch(() => undefined)) as Record<string, unknown> | undefined,
    };
  };

  const started = Date.now();
  // Twelve from one client, more than MAX_CONNECTIONS (10), each on its own connection: before,
  // ten were held and everything else, /healthz included, was 503 for 20 s.
  const greedy: ReturnType<typeof get>[] = [];
  const settled = new Set<number>();
  for (let i = 0; i < 12; i++) {
    const answer = get('/v1/events?wait=20', as('greedy'));
    void answer.then(() => settled.add(i));
    greedy.push(answer);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(settled.size, 9, 'all but three answered at once');
  const held = greedy.filter((_, i) => !settled.has(i));
  for (const answer of await Promise.all(greedy.filter((_, i) => settled.has(i)))) {
    assert.equal(answer.status, 429);
    assert.equal(answer.body?.code, 'TooManyRequests');
    assert.match(String(answer.body?.message), /FEED_MAX_WAITING_PER_CLIENT/);
    assert.ok(
      Number(answer.headers['retry-after']) >= 1 && Number(answer.headers['retry-after']) <= 20,
      `Retry-After ${answer.headers['retry-after']}`,
    );
  }
  // Two more clients: together the five places of the share (half of 10), then 503.
  const others = [get('/v1/events?wait=20', as('second')), get('/v1/events?wait=20', as('second'))];
  await new Promise((resolve) => setTimeout(resolve, 500));
  const full = await get('/v1/events?wait=20', as('third'));
  assert.equal(full.status, 503);
  assert.equal(full.body?.code, 'ServiceUnavailable');
  assert.ok(Number(full.headers['retry-after']) >= 1);
  // A reader without wait, a lookup and the probes are answered at once meanwhile.
  assert.equal((await get('/v1/events', as('third'))).status, 200);
  assert.equal((await get('/v1/registration/death/424242', as('third'))).status, 404);
  assert.equal((await get('/healthz', {})).status, 200);
  assert.equal((await get('/readiness', {})).status, 200);
  assert.ok(Date.now() - started < 8000, 'nothing waited for the held reads');

  // A commit answers the held reads with their event.
  await loadSources(store.writer, builtInType('death'), [deaths([9001])]);
  for (const answer of await Promise.all([...held, ...others])) {
    assert.equal(answer.status, 200);
    assert.equal((answer.body?.events as unknown[] | undefined)?.length, 1);
  }
  // Their seats are free again.
  const again = get('/v1/events?after=1&wait=1', as('greedy'));
  assert.equal((await again).status, 200);
});

for (const kind of await storeKinds()) {
  test(
    `${kind}: the 503 of the waiting reads' limit is logged at warn, as a limit reached, not as a ` + `failure`,
    async (t) => {
      const lines: Array<Record<string, any>> = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
          done();
        },
      });
      const store = await emptyStore(t, kind);
      // A quarter of four connections: one waiting read for all clients together.
      const app = await startApp(
        t,
        store,
        testConfig({ MAX_CONNECTIONS: '4', FEED_WAITING_SHARE: '25' }),
        pino({ level: 'info' }, stream),
      );
      const held = app.get('/v1/events?wait=10', as('first'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const full = await app.get('/v1/events?wait=10', as('second'));
      assert.equal(full.status, 503, full.text);
      assert.equal(full.body.code, 'ServiceUnavailable');
      const logged = lines.filter((line) => line.msg === 'ServiceUnavailable');
      assert.deepEqual(
        logged.map((line) => line.level),
        [40],
        'one line, at warn',
      );
      assert.deepEqual(
        lines.filter((line) => line.level >= 50),
        [],
        'nothing at error level',
      );
      await loadSources(store.writer, builtInType('death'), [deaths([9101])]);
      assert.equal((await held).status, 200);
    },
  );
}
