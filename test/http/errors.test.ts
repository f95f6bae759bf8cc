/**
 * Every error the interface answers with: exact status, stable code, a
 * message naming the parameter at fault, and the headers every answer carries.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import type { ViewDescription } from '../../src/records/views.ts';
import { views } from '../record-types.ts';
import { CALLER, FULL_DETAILS, sharedApp } from '../helper.ts';

type Params = Record<string, string | readonly string[]>;

const app = sharedApp();

const encode = (value: string) => encodeURIComponent(value);
const queryString = (params: Params) =>
  Object.entries(params)
    .flatMap(([name, value]) => [value].flat().map((v) => `${encode(name)}=${encode(v)}`))
    .join('&');

/** A search that succeeds: every required parameter, well formed. */
function validSearch(view: ViewDescription): Record<string, string> {
  return { [view.query.surname]: 'Nobody', [view.query.forenames]: 'Nemo', [view.query.date]: '2000-01-01' };
}

/** The names of the view's name parameters (surname, forenames and, in v0, forename1..4). */
const nameParams = (view: ViewDescription) => [
  view.query.surname,
  view.query.forenames,
  ...(view.query.forenameParts ?? []),
];

/** A valid search in which `name` is the name parameter set to `value` (v0 forename parts replace forenames). */
function searchWithName(view: ViewDescription, name: string, value: string | readonly string[]): Params {
  const params: Params = validSearch(view);
  if (view.query.forenameParts?.includes(name)) {
    delete params[view.query.forenames];
    params[view.query.forenameParts[0]] = 'Nemo';
  }
  params[name] = value;
  return params;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Checks what every error answer carries and returns its message. */
function assertError(response: Answer, status: number, code: string, where: string): string {
  assert.equal(response.status, status, `${where}: ${response.text}`);
  assert.equal(response.headers.get('cache-control'), 'no-store', `${where}: Cache-Control`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${where}: JSON`);
  assert.deepEqual(Object.keys(response.body ?? {}).sort(), ['code', 'message'], `${where}: body is {code, message}`);
  assert.equal(response.body.code, code, where);
  assert.equal(typeof response.body.message, 'string');
  assert.ok(response.body.message.length > 0);
  return response.body.message;
}

async function assertBadRequest(
  path: string,
  parameter: string | undefined,
  where = path,
  headers: Record<string, string> = CALLER,
) {
  const message = assertError(await app().get(path, headers), 400, 'BadRequest', where);
  if (parameter)
    assert.ok(message.includes(`'${parameter}'`), `${where}: the message names '${parameter}': ${message}`);
  return message;
}

const searchPath = (view: ViewDescription, params: Params) => `${view.path}?${queryString(params)}`;
const lookupPath = (view: ViewDescription, id: string) => `${view.path}/${encode(id)}`;

for (const view of views) {
  describe(`${view.version} ${view.record.name} (${view.path})`, () => {
    test('the valid requests used below succeed', async () => {
      const search = await app().get(searchPath(view, validSearch(view)));
      assert.equal(search.status, 200, search.text);
      assert.deepEqual(search.body, []);
      const lookup = await app().get(lookupPath(view, '123456789'));
      assert.equal(lookup.status, 200, lookup.text);
      for (const name of nameParams(view)) {
        const longest = await app().get(searchPath(view, searchWithName(view, name, 'a'.repeat(100))));
        assert.equal(longest.status, 200, `${name} of 100 characters: ${longest.text}`);
      }
    });

    describe('400 BadRequest', () => {
      test('a missing required parameter', async () => {
        const required = [
          view.query.surname,
          view.query.date,
          ...(view.query.forenameParts ? [] : [view.query.forenames]),
        ];
        for (const name of required) {
          const params = validSearch(view);
          delete params[name];
          const message = await assertBadRequest(searchPath(view, params), name, `without ${name}`);
          assert.match(message, /missing/i);
        }
      });

      test('an invalid date', async () => {
        for (const date of [
          '2010-02-30',
          '2010-1-1',
          '0000-01-01',
          '2010-01-01T00:00:00',
          '2010-01-01T00:00:00Z',
          '2010-01-01 ',
          '20100101',
          '2010-13-01',
          '2011-02-29',
          '',
          'today',
        ]) {
          await assertBadRequest(
            searchPath(view, { ...validSearch(view), [view.query.date]: date }),
            view.query.date,
            `date ${JSON.stringify(date)}`,
          );
        }
        for (const date of ['2012-02-29', '0001-01-01', '9999-12-31']) {
          const response = await app().get(searchPath(view, { ...validSearch(view), [view.query.date]: date }));
          assert.equal(response.status, 200, `date ${date} is valid: ${response.text}`);
        }
      });

      test('an id that is not a whole number', async () => {
        for (const id of ['abc', '-1', '1.0', '1e3', '+1', ' 1', '1 ', '0x1f', '١٢٣', '12a', '%00']) {
          await assertBadRequest(lookupPath(view, id), view.idParam, `id ${JSON.stringify(id)}`);
        }
      });

      test('an id of more than 18 digits', async () => {
        for (const digits of [19, 20, 101, 1000]) {
          await assertBadRequest(lookupPath(view, '9'.repeat(digits)), view.idParam, `${digits} digits`);
          await assertBadRequest(
            lookupPath(view, `000${'9'.repeat(digits)}`),
            view.idParam,
            `${digits} digits after zeros`,
          );
        }
      });

      test('leading zeros do not count towards the 18 digits', async () => {
        for (const zeros of [1, 10, 100]) {
          const response = await app().get(lookupPath(view, `${'0'.repeat(zeros)}123456789`), CALLER);
          assert.equal(response.status, 200, `${zeros} leading zeros: ${response.text}`);
          assert.equal(response.body[view.idParam === 'id' ? 'id' : 'systemNumber'], 123456789);
        }
        assert.equal(
          (await app().get(lookupPath(view, `0${'9'.repeat(18)}`), CALLER)).status,
          404,
          '18 digits after a zero is a valid id',
        );
      });

      test('a name of more than 100 characters', async () => {
        for (const name of nameParams(view)) {
          for (const value of ['a'.repeat(101), 'é'.repeat(101), 'a'.repeat(5000)]) {
            await assertBadRequest(
              searchPath(view, searchWithName(view, name, value)),
              name,
              `${name} of ${value.length} characters`,
            );
          }
        }
      });

      test('a name with control characters', async () => {
        for (const name of nameParams(view)) {
          for (const control of [
            '\u0000',
            '\u0001',
            '\t',
            '\n',
            '\r',
            '\u001b',
            '\u001f',
            '\u007f',
            '\u0085',
            '\u009f',
          ]) {
            const value = `An${control}ne`;
            await assertBadRequest(
              searchPath(view, searchWithName(view, name, value)),
              name,
              `${name} with U+${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
            );
          }
        }
      });

      test('a repeated parameter', async () => {
        for (const name of [...nameParams(view), view.query.date]) {
          const params: Params = searchWithName(view, name, ['Anne', 'Anne']);
          if (name === view.query.date) params[name] = ['2000-01-01', '2000-01-02'];
          const message = await assertBadRequest(searchPath(view, params), name, `${name} twice`);
          assert.match(message, /more than once/);
        }
      });

      test('a name with no letter or digit', async () => {
        const names = [view.query.surname, view.query.forenames, ...(view.query.forenameParts?.slice(0, 1) ?? [])];
        for (const name of names) {
          for (const value of ['---', "'", ' ', '- -', "'-'", '.,;', '’']) {
            await assertBadRequest(
              searchPath(view, searchWithName(view, name, value)),
              name,
              `${name}=${JSON.stringify(value)}`,
            );
          }
        }
      });

      test('an empty name', async () => {
        for (const name of [view.query.surname, view.query.forenames]) {
          await assertBadRequest(searchPath(view, { ...validSearch(view), [name]: '' }), name, `${name} empty`);
        }
      });

      if (view.query.forenameParts) {
        const parts = view.query.forenameParts;
        const [first] = parts;

        test(`both ${view.query.forenames} and ${first}`, async () => {
          for (const part of parts) {
            const message = await assertBadRequest(
              searchPath(view, { ...validSearch(view), [part]: 'Anne' }),
              view.query.forenames,
              `forenames and ${part}`,
            );
            assert.ok(message.includes(`'${first}'`), message);
          }
        });

        test(`neither ${view.query.forenames} nor ${first}`, async () => {
          const params: Params = validSearch(view);
          delete params[view.query.forenames];
          for (const extra of [{}, { [parts[1]]: 'Anne' }, { [first]: '' }, { [first]: '', [parts[2]]: 'Anne' }]) {
            const message = await assertBadRequest(
              searchPath(view, { ...params, ...extra }),
              view.query.forenames,
              `neither, with ${JSON.stringify(extra)}`,
            );
            assert.ok(message.includes(`'${first}'`), message);
          }
        });

        test('the forenames whole or word by word: which queries are taken, which refused', async () => {
          const [, second, third, fourth] = parts;
          const { forenames } = view.query;
          const cases: Array<[Record<string, string>, boolean]> = [
            [{ [forenames]: 'Eleanor' }, true],
            [{ [first]: 'Eleanor' }, true],
            [{ [first]: 'Eleanor', [second]: 'Rose' }, true],
            [{ [first]: 'Eleanor', [fourth]: '' }, true],
            // The words together need a letter or digit, not each of them.
            [{ [first]: '-', [second]: 'Rose' }, true],
            // A symbol NFKD makes letters of (™ to TM) is no letter to the names' pattern, as with 'forenames'.
            [{ [first]: '™', [second]: 'Rose' }, true],
            [{ [first]: '™' }, false],
            [{ [first]: '---' }, false],
            [{ [second]: 'Rose' }, false],
            [{ [first]: '', [second]: 'Rose' }, false],
            [{ [forenames]: 'Eleanor', [first]: 'Eleanor' }, false],
            [{ [forenames]: 'Eleanor', [third]: '' }, false],
          ];
          for (const [given, taken] of cases) {
            const params = { [view.query.surname]: 'Nobody', [view.query.date]: '2000-01-01', ...given };
            const response = await app().get(searchPath(view, params));
            assert.equal(response.status, taken ? 200 : 400, `${JSON.stringify(given)}: ${response.text}`);
          }
        });
      }

      test('a URL with a malformed percent-escape', async () => {
        for (const path of [`${view.path}/%`, `${view.path}/%FF`, `${view.path}/%E0%A4%A`, `${view.path}/1%`]) {
          assertError(await app().get(path), 400, 'BadRequest', path);
        }
      });
    });

    describe('401 Unauthorized', () => {
      const bad = searchPath(view, { [view.query.surname]: '---' });
      const requests = [
        ['a lookup', lookupPath(view, '123456789')],
        ['a lookup of an unknown id', lookupPath(view, '1')],
        ['a lookup of a malformed id', lookupPath(view, 'abc')],
        ['a search', searchPath(view, validSearch(view))],
        ['a search with bad parameters', bad],
        ['a search with no parameters', view.path],
      ] as const;
      const identities: Array<[string, Record<string, string>]> = [
        ['no identity', {}],
        ['a username only', { 'x-auth-username': 'someone' }],
        ['a client only', { 'x-auth-aud': 'some-client' }],
        ['a client only (x-original-client)', { 'x-original-client': 'some-client', 'x-auth-roles': 'full-details' }],
        ["the service's own audience as the only client", { 'x-auth-username': 'someone', 'x-auth-aud': 'lev-api' }],
        [
          "the service's own audience as the only client, in a list",
          { 'x-auth-username': 'someone', 'x-auth-audience': ' lev-api , ' },
        ],
        ['a blank username', { 'x-auth-username': '   ', 'x-auth-aud': 'some-client' }],
        ['a blank client', { 'x-original-username': 'someone', 'x-original-client': ' ' }],
        ['roles but no identity', { 'x-auth-roles': 'full-details' }],
      ];

      test('a caller without a username or a client, checked before the parameters', async () => {
        for (const [what, path] of requests) {
          for (const [who, headers] of identities) {
            assertError(await app().get(path, headers), 401, 'Unauthorized', `${what} with ${who}`);
          }
        }
      });

      test('every accepted way of naming the caller', async () => {
        const accepted: Array<Record<string, string>> = [
          CALLER,
          { 'x-original-username': 'someone', 'x-original-client': 'some-client' },
          { 'x-auth-username': 'someone', 'x-auth-audience': 'some-client' },
          { 'x-auth-username': 'someone', 'x-auth-aud': 'lev-api,some-client' },
          { 'x-original-username': 'someone', 'x-auth-aud': 'some-client' },
        ];
        for (const headers of accepted) {
          const response = await app().get(lookupPath(view, '123456789'), headers);
          assert.equal(response.status, 200, `${JSON.stringify(headers)}: ${response.text}`);
        }
      });
    });

    test('404 NotFound for an unknown id', async () => {
      for (const id of ['1', '0', '000', '999999999999999999', '123456788']) {
        for (const headers of [CALLER, FULL_DETAILS]) {
          const response = await app().get(lookupPath(view, id), headers);
          assertError(response, 404, 'NotFound', `id ${id}`);
          // The existing service's clients read the request id from Request-Id.
          assert.match(response.headers.get('request-id') ?? '', /^[0-9a-f-]{36}$/);
          assert.equal(response.headers.get('request-id'), response.headers.get('x-request-id'));
        }
      }
    });
  });
}

describe('404 ResourceNotFound for unknown paths', () => {
  test('names the path, with or without an identity, whatever the query', async () => {
    const paths = [
      '/',
      '/v1',
      '/v1/registration',
      '/v1/registration/births',
      '/v1/registration/nosuchtype/1',
      '/v2/registration/birth',
      '/V1/registration/birth',
      '/v1/registration/birth/1/extra',
      '/api/v0/events/death/1',
      '/api/v0/events/birth/1/2',
      '/healthz/more',
      '/metrics.json',
    ];
    for (const path of paths) {
      for (const headers of [CALLER, {}]) {
        for (const query of ['', '?surname=Smith&forenames=John']) {
          const message = assertError(await app().get(path + query, headers), 404, 'ResourceNotFound', path + query);
          assert.equal(message, `${path} does not exist`);
        }
      }
    }
  });
});

describe('405 MethodNotAllowed', () => {
  const known = [
    ...views.flatMap((view) => [view.path, `${view.path}/123456789`]),
    '/healthz',
    '/readiness',
    '/metrics',
    '/openapi.json',
  ];

  test('other methods on a known path, with Allow: GET, HEAD', async () => {
    for (const path of known) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        for (const headers of [CALLER, {}]) {
          const response = await fetch(app().url + path, {
            method,
            headers,
            body: method === 'POST' || method === 'PUT' ? '{}' : undefined,
          });
          const text = await response.text();
          const message = assertError(
            { status: response.status, headers: response.headers, body: JSON.parse(text), text },
            405,
            'MethodNotAllowed',
            `${method} ${path}`,
          );
          assert.equal(response.headers.get('allow'), 'GET, HEAD', `${method} ${path}: Allow`);
          assert.ok(message.includes(method), message);
        }
      }
    }
  });

  test(
    'methods fetch cannot send (TRACE) and WebDAV or other ' + 'extension methods: 405 too, with the usual headers',
    async () => {
      const { port } = new URL(app().url);
      for (const path of known) {
        for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'LOCK', 'SEARCH', 'PURGE', 'REPORT']) {
          const response = await new Promise<{ status: number; headers: Record<string, unknown>; text: string }>(
            (resolve, reject) => {
              request(
                { host: '127.0.0.1', port, path, method, headers: { ...CALLER, 'content-type': 'application/xml' } },
                (res) => {
                  let text = '';
                  res
                    .setEncoding('utf8')
                    .on('data', (chunk) => (text += chunk))
                    .on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
                },
              )
                .on('error', reject)
                .end(method === 'TRACE' ? undefined : '<propfind/>');
            },
          );
          assert.equal(response.status, 405, `${method} ${path}: ${response.text}`);
          assert.equal(response.headers.allow, 'GET, HEAD', `${method} ${path}: Allow`);
          assert.equal(JSON.parse(response.text).code, 'MethodNotAllowed');
          assert.ok(response.headers['x-content-type-options'], `${method} ${path}: security headers`);
        }
      }
    },
  );
});

describe('HEAD', () => {
  const head = async (path: string, headers: Record<string, string> = CALLER) => {
    const response = await fetch(app().url + path, { method: 'HEAD', headers });
    assert.equal(await response.text(), '', `HEAD ${path} has no body`);
    assert.equal(response.headers.get('cache-control'), 'no-store', `HEAD ${path}: Cache-Control`);
    return response;
  };

  test('answers on every GET route as GET would, without a body', async () => {
    for (const view of views) {
      assert.equal((await head(`${view.path}/123456789`)).status, 200);
      assert.equal((await head(`${view.path}?${queryString(validSearch(view))}`)).status, 200);
      assert.equal((await head(`${view.path}/1`)).status, 404);
      assert.equal((await head(`${view.path}/abc`)).status, 400);
      assert.equal((await head(`${view.path}/123456789`, {})).status, 401);
    }
    for (const path of ['/healthz', '/readiness', '/metrics', '/openapi.json'])
      assert.equal((await head(path, {})).status, 200, path);
    assert.equal((await head('/nowhere')).status, 404);
  });
});

describe('Cache-Control: no-store', () => {
  test('on every kind of answer', async () => {
    const [view] = views;
    const paths = [
      `${view.path}/123456789`,
      `${view.path}?${queryString(validSearch(view))}`,
      `${view.path}/abc`,
      `${view.path}/1`,
      '/nowhere',
      '/healthz',
      '/readiness',
      '/metrics',
      '/openapi.json',
      '/docs',
    ];
    for (const path of paths) {
      for (const headers of [CALLER, {}]) {
        const response = await app().get(path, headers);
        assert.equal(response.headers.get('cache-control'), 'no-store', `${path} (${response.status})`);
      }
    }
  });
});
