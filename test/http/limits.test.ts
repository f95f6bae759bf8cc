/**
 * What is refused before any work: a URL over 8 KiB (414), a request line and
 * headers over 16 KiB together (431), a request that cannot be parsed (400),
 * an Expect the service cannot meet (417), each with the usual `{code, message}` body and security headers, and with
 * nothing read from the store. And the Content-Security-Policies: none may be
 * loaded by a JSON answer; /docs loads Swagger UI from this origin only.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { before, test } from 'node:test';
import { API_CSP, DOCS_CSP } from '../../src/http/headers.ts';
import { MAX_HEADER_BYTES, MAX_URL_LENGTH } from '../../src/http/transport.ts';
import { countingReads } from '../helper.ts';
import { CALLER, type RunningApp, filledStore, startApp, suiteContext } from '../helper.ts';

const context = suiteContext();
let app: RunningApp;
let reads: () => number;
before(async () => {
  const real = await filledStore(context, 'memory');
  const { store, reads: counted } = countingReads(real);
  reads = counted;
  app = await startApp(context, store);
});

/**
 * Sends raw bytes and returns the whole answer as text. With `keepOpen`, the socket is not ended
 * after them (the server closes it once it has answered a request that asks for that).
 */
function raw(bytes: string, { keepOpen = false } = {}): Promise<string> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => (keepOpen ? socket.write(bytes) : socket.end(bytes)));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('close', () => resolve(answer));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
    );
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

/** A search path padded with an unknown parameter to exactly `length` characters. */
function searchOfLength(length: number): string {
  const base = '/v1/registration/birth?surname=Ashworth&forenames=Eleanor&dateOfBirth=2008-08-08&pad=';
  return base + 'x'.repeat(length - base.length);
}

test(
  `a URL of more than ${MAX_URL_LENGTH} characters is 414, before anything is read; one of exactly that ` +
    `length is served`,
  async () => {
    const before = reads();
    const long = await app.get(searchOfLength(MAX_URL_LENGTH + 1));
    assert.equal(long.status, 414);
    assert.deepEqual(long.body, { code: 'URITooLong', message: `The URL is longer than ${MAX_URL_LENGTH} characters` });
    assert.equal(long.headers.get('content-type'), 'application/json');
    assert.equal(long.headers.get('cache-control'), 'no-store');
    assert.equal(long.headers.get('content-security-policy'), API_CSP);
    assert.equal(
      (await app.get(`/v1/registration/birth/${'9'.repeat(MAX_URL_LENGTH)}`)).status,
      414,
      'in the path too',
    );
    assert.equal((await app.get(`/no/such/path?${'q'.repeat(MAX_URL_LENGTH)}`)).status, 414, 'on any path');
    assert.equal(reads(), before, 'nothing read');
    const longest = await app.get(searchOfLength(MAX_URL_LENGTH));
    assert.equal(longest.status, 200, longest.text);
    assert.deepEqual(
      longest.body.map((record: { id: number }) => record.id),
      [123456789],
    );
  },
);

test(`a request line and headers of more than ${MAX_HEADER_BYTES} bytes together are 431`, async () => {
  const before = reads();
  const answer = await raw(
    `GET /v1/registration/birth/123456789 HTTP/1.1\r\nHost: x\r\nx-auth-username: jo\r\nx-auth-aud: ` +
      `svc\r\nx-padding: ${'p'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`,
  );
  assert.match(answer, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
  assert.match(answer, /\r\ncache-control: no-store\r\n/);
  assert.deepEqual(bodyOf(answer), {
    code: 'RequestHeaderFieldsTooLarge',
    message: `The request line and headers are longer than ${MAX_HEADER_BYTES} bytes`,
  });
  assert.equal(reads(), before);
  const fits = await app.get('/v1/registration/birth/123456789', {
    ...CALLER,
    'x-padding': 'p'.repeat(MAX_HEADER_BYTES - 1024),
  });
  assert.equal(fits.status, 200);
});

test('a request that is not HTTP is 400 with the usual body', async () => {
  const answer = await raw('HELLO THERE\r\n\r\n');
  assert.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.deepEqual(bodyOf(answer), { code: 'BadRequest', message: 'The request could not be read' });
});

test('an Expect other than 100-continue is 417 with the usual body, where Node would answer a bare one', async () => {
  const answer = await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n');
  assert.match(answer, /^HTTP\/1\.1 417 Expectation Failed\r\n/);
  assert.match(answer, /\r\ncontent-type: application\/json\r\n/);
  assert.deepEqual(bodyOf(answer), {
    code: 'ExpectationFailed',
    message: 'The service meets no expectation but 100-continue: send the request without this Expect header',
  });
});

test(
  "JSON answers, errors included, carry default-src 'none'; /docs a policy that lets Swagger UI load from " +
    'here only',
  async () => {
    for (const path of [
      '/v1/registration/birth/123456789',
      '/v1/registration/birth/x',
      '/no/such/path',
      '/healthz',
      '/openapi.json',
      '/v1/registration/birth/%E0%A4%A',
    ]) {
      const response = await app.get(path);
      assert.equal(response.headers.get('content-security-policy'), API_CSP, path);
      assert.equal(response.headers.get('strict-transport-security'), null, `${path}: no HSTS over HTTP`);
    }
    assert.match(API_CSP, /^default-src 'none'; /);
    assert.match(API_CSP, /frame-ancestors 'none'/);
    for (const path of [
      '/docs',
      '/docs/',
      '/docs/static/swagger-ui.css',
      '/docs/static/swagger-initializer.js',
      '/docs/json',
    ]) {
      const response = await app.get(path, {});
      assert.ok(response.status < 400, `${path}: ${response.status}`);
      assert.equal(response.headers.get('content-security-policy'), DOCS_CSP, path);
    }
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ]) {
      assert.ok(DOCS_CSP.split('; ').includes(directive), directive);
    }
    // Swagger UI's page: no inline script, which the policy would block.
    const page = await app.get('/docs/', {});
    assert.doesNotMatch(page.text, /<script>|<script[^>]*>[^<\s]/);
  },
);

test('/docs in a request refused by the parser still gets the JSON policy (nothing to render)', async () => {
  const answer = await raw(`GET /docs HTTP/1.1\r\nHost: x\r\nx-padding: ${'p'.repeat(MAX_HEADER_BYTES)}\r\n\r\n`);
  assert.ok(answer.includes(`\r\ncontent-security-policy: ${API_CSP}\r\n`), answer.slice(0, 600));
});

test(
  'an HTTP/1.1 request without Host, or with two, is 400 ' + 'with the usual body and headers; HTTP/1.0 needs none',
  async () => {
    const path = '/v1/registration/birth/123456789';
    const identity = 'X-Auth-Username: a\r\nX-Auth-Aud: b\r\n';
    for (const [request, message] of [
      [`GET ${path} HTTP/1.1\r\n${identity}\r\n`, 'An HTTP/1.1 request needs a Host header'],
      [
        `GET ${path} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n${identity}\r\n`,
        'The request has more than one Host header',
      ],
      [
        `GET ${path} HTTP/1.0\r\nHost: a.example\r\nhost: a.example\r\n${identity}\r\n`,
        'The request has more than one Host header',
      ],
    ]) {
      const answer = await raw(request);
      assert.match(answer, /^HTTP\/1\.1 400 /, request);
      assert.deepEqual(bodyOf(answer), { code: 'BadRequest', message });
      assert.match(answer, /\r\nx-content-type-options: nosniff\r\n/i);
      assert.match(answer, /\r\ncontent-type: application\/json\r\n/i);
    }
    assert.match(await raw(`GET ${path} HTTP/1.0\r\n${identity}\r\n`, { keepOpen: true }), /^HTTP\/1\.1 200 /);
    assert.match(
      await raw(`GET ${path} HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n${identity}\r\n`, { keepOpen: true }),
      /^HTTP\/1\.1 200 /,
    );
  },
);
