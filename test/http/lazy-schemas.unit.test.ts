/**
 * Schemas compiled when first used: a request is validated and an answer serialised as Fastify's
 * default compilers do; a header named in mixed case is still read; a schema that cannot compile,
 * or that is not JSON Schema, is told by `warm` with no request made.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { lazySchemas } from '../../src/http/lazy-schemas.ts';

function appWith(schemas = lazySchemas()) {
  const app = Fastify({ schemaController: { compilersFactory: schemas.compilersFactory } });
  app.get(
    '/things/:id',
    {
      schema: {
        params: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{3}$' } } },
        querystring: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false },
        headers: { type: 'object', properties: { 'X-Position': { type: 'string', pattern: '^[0-9]+$' } } },
        response: { 200: { type: 'object', properties: { id: { type: 'string' } } } },
      },
    },
    async (request) => ({ id: (request.params as { id: string }).id, secret: 'not in the schema' }),
  );
  return { app, schemas };
}

describe('lazySchemas', () => {
  test('validates and serialises as the default compilers do', async () => {
    const { app } = appWith();
    const good = await app.inject('/things/123?n=4');
    assert.equal(good.statusCode, 200);
    assert.deepEqual(good.json(), { id: '123' });
    const badParam = await app.inject('/things/12x');
    assert.equal(badParam.statusCode, 400);
    assert.match(badParam.json().message, /params\/id must match pattern/);
    const badQuery = await app.inject('/things/123?n=four');
    assert.equal(badQuery.statusCode, 400);
    assert.match(badQuery.json().message, /querystring\/n must be integer/);
    await app.close();
  });

  test('reads a header named in mixed case, as Node gives it in lower case', async () => {
    const { app } = appWith();
    const bad = await app.inject({ url: '/things/123', headers: { 'x-position': 'seven' } });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, /headers\/x-position must match pattern/);
    assert.equal((await app.inject({ url: '/things/123', headers: { 'X-Position': '7' } })).statusCode, 200);
    await app.close();
  });

  test('refuses a headers schema that says more than each header', async () => {
    const app = Fastify({ schemaController: { compilersFactory: lazySchemas().compilersFactory } });
    app.get('/', { schema: { headers: { type: 'object', patternProperties: { '^X-': {} } } } }, async () => 'x');
    await assert.rejects(async () => app.ready(), /a schema of request headers names each header/);
  });

  test('warm compiles what no request used, and tells a schema that cannot compile', async () => {
    const { app, schemas } = appWith();
    app.get(
      '/broken',
      { schema: { querystring: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } } },
      () => 'x',
    );
    await app.ready();
    await assert.rejects(schemas.warm(), /nowhere/);
    await app.close();

    const whole = appWith();
    await whole.app.ready();
    await whole.schemas.warm();
    assert.equal((await whole.app.inject('/things/123')).statusCode, 200);
    await whole.app.close();
  });

  test('warm tells a schema that compiles but is not JSON Schema', async () => {
    // A negative minLength compiles (Ajv checks only that it is a number); the meta-schema refuses it.
    const { app, schemas } = appWith();
    const odd = { type: 'object', properties: { a: { type: 'string', minLength: -1 } } };
    app.get('/odd', { schema: { querystring: odd } }, () => 'x');
    await app.ready();
    assert.equal((await app.inject('/odd?a=b')).statusCode, 200);
    await assert.rejects(schemas.warm(), /not JSON Schema: .*minLength must be >= 0/);
    await app.close();
  });
});
