/**
 * The 405 of a known path, on a bare Fastify app with only the error handling installed: a method
 * the path lacks is a 405 naming those it has, whatever the method; an unknown path is a 404; and a
 * route that finds nothing for its own method (reply.callNotFound) stays a 404.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { installErrorHandling } from '../../src/http/error-handler.ts';

async function appWithThings() {
  const app = Fastify();
  const guardMethods = installErrorHandling(app);
  app.get('/things/:id', async (request, reply) => {
    if ((request.params as { id: string }).id === 'none') return reply.callNotFound();
    return { id: (request.params as { id: string }).id };
  });
  app.delete('/things/:id', async () => ({ deleted: true }));
  app.post('/forms', async () => ({ posted: true }));
  await app.after();
  guardMethods();
  return app;
}

test('a method a known path lacks is a 405 naming the methods it has', async (t) => {
  const app = await appWithThings();
  t.after(() => app.close());
  for (const method of ['POST', 'PUT', 'PROPFIND', 'TRACE'] as const) {
    const answer = await app.inject({ method, url: '/things/7?x=1' });
    assert.equal(answer.statusCode, 405, method);
    assert.equal(answer.headers.allow, 'GET, HEAD, DELETE', method);
    assert.deepEqual(answer.json(), { code: 'MethodNotAllowed', message: `${method} is not allowed` });
  }
  // A body of a type no parser reads: still the method that is wrong.
  const unread = await app.inject({ method: 'POST', url: '/things/7', headers: { 'content-type': 'x/y' }, body: 'z' });
  assert.equal(unread.statusCode, 405);
});

test('an unknown path, a path with no GET, and a route that finds nothing are 404s', async (t) => {
  const app = await appWithThings();
  t.after(() => app.close());
  assert.equal((await app.inject({ method: 'POST', url: '/nowhere' })).statusCode, 404);
  assert.equal((await app.inject({ method: 'PUT', url: '/forms' })).statusCode, 404);
  const none = await app.inject({ method: 'GET', url: '/things/none' });
  assert.equal(none.statusCode, 404);
  assert.equal(none.json().code, 'ResourceNotFound');
  assert.equal((await app.inject({ method: 'GET', url: '/things/7' })).statusCode, 200);
  assert.equal((await app.inject({ method: 'DELETE', url: '/things/7' })).statusCode, 200);
});
