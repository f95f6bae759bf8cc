/**
 * The status lists answered before Fastify: only a list signed within STATUS_LIST_REUSE_MS, only to
 * a GET of its exact path; anything else is left to the route. And what the app answers from the
 * cache is what its route answers: the same body and headers, the request ids aside.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { issuerKeys } from '../../src/credentials/keys.ts';
import { STATUS_LIST_REUSE_MS, statusLists } from '../../src/http/status-lists.ts';
import { createMemoryCredentialStatuses } from '../../src/store/memory-credentials.ts';
import { CALLER, filledStore, startApp } from '../helper.ts';

const ISSUER = 'https://issuer.example';
const silent = { isLevelEnabled: () => false } as never;

/** A server answering only what `answerEarly` answers; the rest 418, standing for the route. */
async function earlyOnly(t: { after(fn: () => unknown): void }, tls = false) {
  const statuses = createMemoryCredentialStatuses();
  const keys = await issuerKeys(undefined);
  const lists = statusLists({ statuses, key: () => keys.current, ttlS: 60, storeUnavailable: (read) => read() });
  const early = lists.answerEarly({ issuer: () => ISSUER, tls, log: silent });
  const server = createServer((request, response) => {
    if (!early(request, response)) response.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { statuses, lists, get: (path: string, init?: RequestInit) => fetch(`${url}${path}`, init) };
}

test('a list is answered early only once signed, and only for STATUS_LIST_REUSE_MS', async (t) => {
  const { statuses, lists, get } = await earlyOnly(t);
  const { list } = await statuses.allocate('birth', 1);
  assert.equal((await get(`/v1/credentials/status/${list}`)).status, 418, 'not signed yet: the route signs it');
  const token = await lists.token(list, ISSUER);
  assert.ok(token);
  const answered = await get(`/v1/credentials/status/${list}`);
  assert.equal(answered.status, 200);
  assert.equal(await answered.text(), token);
  assert.equal(answered.headers.get('content-type'), 'application/statuslist+jwt');
  assert.equal(answered.headers.get('cache-control'), 'public, max-age=60');
  assert.match(answered.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(answered.headers.get('x-request-id'), answered.headers.get('request-id'));
  for (const path of [
    `/v1/credentials/status/${list}?x=1`,
    `/v1/credentials/status/0${list}`,
    `/v1/credentials/status/${list}/`,
    '/v1/credentials/status/2',
  ]) {
    assert.equal((await get(path)).status, 418, path);
  }
  assert.equal((await get(`/v1/credentials/status/${list}`, { method: 'HEAD' })).status, 418, 'HEAD is the route’s');
  await new Promise((resolve) => setTimeout(resolve, STATUS_LIST_REUSE_MS + 50));
  assert.equal((await get(`/v1/credentials/status/${list}`)).status, 418, 'due to be read again: the route reads it');
});

test('the app answers a list from its cache with the body and headers its route gives', async (t) => {
  const app = await startApp(t, await filledStore(t, 'memory'));
  const issued = await app.get('/v1/credentials/birth/123456789', { ...CALLER, 'x-auth-roles': 'birth,credentials' });
  assert.equal(issued.status, 200, issued.text);
  const uri = new URL(JSON.parse(Buffer.from(issued.text.split('.')[1], 'base64url').toString()).status.status_list.uri)
    .pathname;
  // The first read signs the list (the route); the next, within STATUS_LIST_REUSE_MS, is the cache's.
  const [routed, cached] = [await app.get(uri, {}), await app.get(uri, {})];
  assert.equal(cached.status, 200);
  assert.equal(cached.text, routed.text);
  const headers = (answer: typeof routed) =>
    Object.fromEntries(
      [...answer.headers]
        .filter(([name]) => !['x-request-id', 'request-id', 'date'].includes(name))
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  assert.deepEqual(headers(cached), headers(routed));
  assert.notEqual(cached.headers.get('x-request-id'), routed.headers.get('x-request-id'));
});
