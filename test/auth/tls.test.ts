/**
 * HTTPS with client certificates (TLS_CERT, TLS_KEY, TLS_CLIENT_CA) over real
 * loopback connections, each request on a new connection: the handshake fails
 * without a certificate or with one from another CA; a certificate that breaks
 * an on-boarding rule (key size, validity period, signature algorithm) is
 * refused with the rule and its fingerprint logged; certificate-bound tokens
 * (RFC 8705) from the test issuer's mutual-TLS endpoint count only over a
 * connection presenting their certificate. Every certificate is made here,
 * with openssl, when the tests start.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { type Socket, connect as netConnect } from 'node:net';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect as tlsConnect } from 'node:tls';
import { before, describe, test } from 'node:test';
import pino from 'pino';
import { MAX_VALIDITY_DAYS, certificateProblem, certificateThumbprint } from '../../src/auth/client-certificate.ts';
import { ConfigError } from '../../src/errors.ts';
import { loadConfig } from '../../src/config/index.ts';
import { type RunningApp, type TestStore, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';
import { AUDIENCE, type TestIssuer, startIssuer } from './issuer.ts';
import { type Authority, type Credential, type HttpsOptions, createPki, httpsGet } from './pki.ts';

const context = suiteContext();
const BIRTH = '/v1/registration/birth/123456789';
const INVALID_TOKEN = 'Bearer realm="lev-api", error="invalid_token"';

let ca: Authority;
let otherCa: Authority;
let server: Credential;
/** Client certificates: good ones (rsa, ec), and one breaking each rule. */
const clients: Record<string, Credential> = {};
let issuer: TestIssuer;
let store: TestStore;

before(async () => {
  const pki = await createPki(context);
  [ca, otherCa] = await Promise.all([pki.authority('lev-test-ca'), pki.authority('other-ca')]);
  const made = await Promise.all([
    ca.issue('server', { usage: 'serverAuth' }),
    ca.issue('good'),
    ca.issue('good-ec', { newKey: 'ec', keyOption: 'ec_paramgen_curve:P-256' }),
    ca.issue('second'),
    ca.issue('rsa-1024', { newKey: 'rsa:1024' }),
    ca.issue('three-years', { days: 3 * 365 }),
    ca.issue('two-years', { days: MAX_VALIDITY_DAYS }),
    ca.issue('sha1', { digest: 'sha1' }),
    ca.issue('md5', { digest: 'md5' }),
    ca.issue('ec-p192', { newKey: 'ec', keyOption: 'ec_paramgen_curve:P-192' }),
    otherCa.issue('stranger'),
  ]);
  [server] = made;
  for (const credential of made.slice(1)) clients[credential.x509.subject.replace('CN=', '')] = credential;
  issuer = await startIssuer({ mtls: { cert: server.cert, key: server.key } });
  context.after(() => issuer.close());
  store = await filledStore(context, 'memory');
});

/** The app over HTTPS with client certificates, logging to `lines`. */
async function mtlsApp(t: Parameters<typeof startApp>[0], env: Record<string, string> = {}) {
  const lines: Array<Record<string, any>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const config = testConfig({
    AUTH_MODE: 'oidc',
    OIDC_ISSUER: issuer.url,
    OIDC_AUDIENCE: AUDIENCE,
    TLS_CERT: server.certPath,
    TLS_KEY: server.keyPath,
    TLS_CLIENT_CA: ca.certPath,
    ...env,
  });
  const app = await startApp(t, store, config, pino({ level: 'debug' }, stream));
  return { app, lines };
}

const as = (client: Credential | undefined, token?: string, extra: Partial<HttpsOptions> = {}): HttpsOptions => ({
  ca: ca.cert,
  client,
  headers: token ? { authorization: `Bearer ${token}` } : {},
  ...extra,
});

/** Waits for the server's log line about a connection (written after the client saw the failure). */
async function logged(lines: Array<Record<string, any>>, message: string, count = 1) {
  for (let i = 0; i < 50 && lines.filter((line) => line.msg === message).length < count; i++)
    await new Promise((resolve) => setTimeout(resolve, 20));
  return lines.filter((line) => line.msg === message);
}

describe('TLS_CLIENT_CA: the handshake', () => {
  let app: RunningApp;
  let lines: Array<Record<string, any>>;
  before(async () => {
    ({ app, lines } = await mtlsApp(context));
  });

  test('a good certificate (RSA 2048 or EC P-256) and a valid token: 200 over HTTPS', async () => {
    assert.match(app.url, /^https:/);
    const token = await issuer.token('verifier');
    for (const name of ['good', 'good-ec', 'two-years']) {
      const response = await httpsGet(app.url + BIRTH, as(clients[name], token));
      assert.equal(response.status, 200, `${name}: ${response.text}`);
      assert.equal(response.body.id, 123456789);
    }
  });

  test('no client certificate: the handshake fails, and the log says why', async () => {
    const before = lines.length;
    await assert.rejects(
      httpsGet(app.url + BIRTH, as(undefined, await issuer.token('verifier'))),
      (error: NodeJS.ErrnoException) => {
        assert.match(String(error.code), /CERTIFICATE_REQUIRED|ECONNRESET/);
        return true;
      },
    );
    await assert.rejects(httpsGet(`${app.url}/healthz`, as(undefined)), 'no route is open without a certificate');
    const [line] = (await logged(lines.slice(before), 'TLS handshake refused')).slice(-1);
    assert.equal(line?.level, 40, 'warn');
    assert.equal(line.tls.reason, 'ERR_SSL_PEER_DID_NOT_RETURN_A_CERTIFICATE');
  });

  test('a certificate from another CA: the connection is dropped, and the log says why', async () => {
    const before = lines.length;
    await assert.rejects(httpsGet(app.url + BIRTH, as(clients.stranger, await issuer.token('verifier'))));
    const [line] = await logged(lines.slice(before), 'TLS handshake refused');
    assert.ok(line, 'logged');
    assert.equal(line.level, 40, 'warn');
    assert.match(line.tls.reason, /ISSUER|VERIFY|SELF_SIGNED/);
  });

  test(
    'the server presents its own certificate, which the ' + 'client checks (another CA: refused by the client)',
    async () => {
      await assert.rejects(
        httpsGet(`${app.url}/healthz`, { ca: otherCa.cert, client: clients.good }),
        /self.signed|unable to verify|issuer/i,
      );
    },
  );
});

describe('TLS: connections that send nothing', () => {
  /** Milliseconds from `opened` until the socket closes, or -1 if it is still open after 6 s. */
  const closedAfter = (socket: Socket, opened: number) =>
    Promise.race([
      new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened))),
      sleep(6000, -1),
    ]);

  test(
    'one that never starts its handshake, and one that finishes it and sends no request, are closed ' +
      'within HEADERS_TIMEOUT_S',
    async (t) => {
      const { app } = await mtlsApp(t, { HEADERS_TIMEOUT_S: '1', REQUEST_TIMEOUT_S: '2' });
      const { hostname, port } = new URL(app.url);
      const silent = netConnect(Number(port), hostname).on('error', () => {});
      const opened = Date.now();
      const handshaken = tlsConnect({
        host: hostname,
        port: Number(port),
        servername: 'localhost',
        ca: ca.cert,
        cert: clients.good.cert,
        key: clients.good.key,
      });
      handshaken.on('error', () => {});
      try {
        await new Promise((resolve) => handshaken.once('secureConnect', resolve));
        const secured = Date.now();
        const [beforeHandshake, afterHandshake] = await Promise.all([
          closedAfter(silent, opened),
          closedAfter(handshaken, secured),
        ]);
        assert.ok(
          beforeHandshake >= 900 && beforeHandshake < 2500,
          `no handshake: closed after ${beforeHandshake} ms (Node's own limit is 120 s)`,
        );
        assert.ok(
          afterHandshake >= 900 && afterHandshake < 2500,
          `no request after the handshake: closed after ${afterHandshake} ms`,
        );
      } finally {
        silent.destroy();
        handshaken.destroy();
      }
    },
  );
});

describe('TLS_CLIENT_CA: the on-boarding rules', () => {
  let app: RunningApp;
  let lines: Array<Record<string, any>>;
  before(async () => {
    ({ app, lines } = await mtlsApp(context));
  });

  /**
   * A refusal of a certificate the handshake let through: 403 on every route, logged with the rule and the
   * fingerprint.
   */
  async function assertRefused(name: string, rule: string, message: RegExp, extra: Partial<HttpsOptions> = {}) {
    const before = lines.length;
    const token = await issuer.token('verifier');
    for (const path of [BIRTH, '/healthz']) {
      const response = await httpsGet(app.url + path, as(clients[name], token, extra));
      assert.equal(response.status, 403, `${name} ${path}: ${response.text}`);
      assert.equal(response.body.code, 'Forbidden');
      assert.match(response.body.message, message);
      assert.equal(response.headers.connection, 'close');
    }
    const refusals = (
      await logged(lines.slice(before), 'client certificate refused: it breaks an on-boarding rule', 2)
    ).slice(0, 2);
    assert.equal(refusals.length, 2, 'one line per connection');
    for (const line of refusals) {
      assert.equal(line.level, 40, 'warn');
      assert.deepEqual(line.tls, { rule, fingerprint: clients[name].x509.fingerprint256 });
    }
    const text = JSON.stringify(lines.slice(before));
    assert.ok(!text.includes(`CN=${name}`) && !text.includes(`"${name}"`), 'the subject is not logged');
  }

  test('an RSA key of 1024 bits', async () => {
    await assertRefused('rsa-1024', 'key-size', /RSA key has 1024 bits; at least 2048/);
  });

  test('a certificate valid for three years (at most two, 731 days, are accepted)', async () => {
    await assertRefused('three-years', 'validity-period', /valid for 1095 days; at most 731/);
  });

  test(
    'signed with SHA-1 or MD5, or an EC key of 192 bits: ' + 'refused, by OpenSSL at the handshake, else by the rule',
    async () => {
      // The client has to lower its own security level even to load a SHA-1 signed certificate; P-192 needs TLS 1.2.
      const cases = [
        ['sha1', 'DEFAULT:@SECLEVEL=0', /signed with sha1WithRSAEncryption/],
        ['md5', 'DEFAULT:@SECLEVEL=0', /signed with md5WithRSAEncryption/],
        ['ec-p192', 'DEFAULT:@SECLEVEL=0', /EC key \(prime192v1\) has 192 bits; at least 256/],
      ] as const;
      for (const [name, ciphers, message] of cases) {
        const options = as(clients[name], await issuer.token('verifier'), { tls: { ciphers, maxVersion: 'TLSv1.2' } });
        const answer = await httpsGet(app.url + BIRTH, options).catch((error: Error) => error);
        if (answer instanceof Error) continue; // the handshake failed (Node's OpenSSL, at its default security level)
        assert.equal(answer.status, 403, `${name}: ${answer.text}`);
        assert.match(answer.body.message, message);
      }
      // The rules themselves, for a server whose OpenSSL security level would let these through.
      assert.deepEqual(certificateProblem(clients.sha1.x509), {
        rule: 'signature-algorithm',
        detail: 'it is signed with sha1WithRSAEncryption; SHA-256 or stronger is needed',
      });
      assert.equal(certificateProblem(clients.md5.x509)?.rule, 'signature-algorithm');
      assert.deepEqual(certificateProblem(clients['ec-p192'].x509), {
        rule: 'key-size',
        detail: 'its EC key (prime192v1) has 192 bits; at least 256 are needed',
      });
      assert.equal(certificateProblem(clients.good.x509), undefined);
      assert.equal(certificateProblem(clients['good-ec'].x509), undefined);
    },
  );

  test('the rule read from each certificate: the CA itself (self-signed, SHA-256) keeps them', () => {
    assert.equal(certificateProblem(new X509Certificate(ca.cert)), undefined);
    assert.equal(certificateProblem(clients['rsa-1024'].x509)?.rule, 'key-size');
    assert.equal(certificateProblem(clients['three-years'].x509)?.rule, 'validity-period');
  });
});

describe('certificate-bound tokens (RFC 8705)', () => {
  let app: RunningApp;
  before(async () => {
    ({ app } = await mtlsApp(context));
  });

  const boundTo = (credential: Credential) =>
    issuer.token('bound', undefined, { cert: credential.cert, key: credential.key, ca: ca.cert });

  test('the issuer binds the token to the certificate presented at its mTLS endpoint', async () => {
    const token = await boundTo(clients.good);
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    assert.deepEqual(claims.cnf, { 'x5t#S256': certificateThumbprint(clients.good.x509) });
  });

  test('with the certificate it is bound to: 200', async () => {
    const response = await httpsGet(app.url + BIRTH, as(clients.good, await boundTo(clients.good)));
    assert.equal(response.status, 200, response.text);
  });

  test('with another certificate of the same CA: 401 invalid_token', async () => {
    const response = await httpsGet(app.url + BIRTH, as(clients.second, await boundTo(clients.good)));
    assert.equal(response.status, 401);
    assert.equal(response.headers['www-authenticate'], INVALID_TOKEN);
    assert.deepEqual(response.body, { code: 'Unauthorized', message: 'The access token is invalid or has expired' });
  });

  test('a cnf this service cannot check (a DPoP key), or a malformed one: 401', async () => {
    for (const cnf of [{ jkt: 'abc' }, { 'x5t#S256': 42 }, 'x', null]) {
      const response = await httpsGet(app.url + BIRTH, as(clients.good, await issuer.sign({ cnf })));
      assert.equal(response.status, 401, JSON.stringify(cnf));
    }
    const exact = await issuer.sign({ cnf: { 'x5t#S256': certificateThumbprint(clients.good.x509) } });
    assert.equal(
      (await httpsGet(app.url + BIRTH, as(clients.good, exact))).status,
      200,
      'a signed cnf naming the certificate',
    );
  });

  test('over plain HTTP there is no certificate: a bound token is 401', async (t) => {
    const plain = await startApp(
      t,
      store,
      testConfig({ AUTH_MODE: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: AUDIENCE }),
    );
    const response = await plain.get(BIRTH, { authorization: `Bearer ${await boundTo(clients.good)}` });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), INVALID_TOKEN);
    assert.equal(
      (await plain.get(BIRTH, { authorization: `Bearer ${await issuer.token('verifier')}` })).status,
      200,
      'unbound: still accepted',
    );
  });

  test('REQUIRE_BOUND_TOKENS=true: an unbound token is 401; a bound one with its certificate is 200', async (t) => {
    const { app: strict, lines } = await mtlsApp(t, { REQUIRE_BOUND_TOKENS: 'true' });
    const unbound = await httpsGet(strict.url + BIRTH, as(clients.good, await issuer.token('verifier')));
    assert.equal(unbound.status, 401);
    assert.equal(unbound.headers['www-authenticate'], INVALID_TOKEN);
    const line = lines.find((entry) => entry.msg === 'Unauthorized');
    assert.deepEqual(
      line?.err,
      { type: 'CertificateBindingFailed', code: 'CNF_REQUIRED', claim: 'cnf' },
      'the log says which check',
    );
    assert.equal((await httpsGet(strict.url + BIRTH, as(clients.good, await boundTo(clients.good)))).status, 200);
    assert.equal((await httpsGet(strict.url + BIRTH, as(clients.second, await boundTo(clients.good)))).status, 401);
  });
});

describe('HTTPS headers', () => {
  test('HSTS over TLS, with the CSPs; none over HTTP', async (t) => {
    const { app } = await mtlsApp(t);
    const token = await issuer.token('verifier');
    const json = await httpsGet(app.url + BIRTH, as(clients.good, token));
    assert.equal(json.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
    assert.match(String(json.headers['content-security-policy']), /^default-src 'none'/);
    const docs = await httpsGet(`${app.url}/docs/`, as(clients.good));
    assert.equal(docs.status, 200);
    assert.equal(docs.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
    assert.match(String(docs.headers['content-security-policy']), /script-src 'self'/);
    const plain = await startApp(t, store);
    assert.equal((await plain.get('/healthz')).headers.get('strict-transport-security'), null);
  });

  test('TLS without TLS_CLIENT_CA: HTTPS, no certificate asked for', async (t) => {
    const app = await startApp(t, store, testConfig({ TLS_CERT: server.certPath, TLS_KEY: server.keyPath }));
    const response = await httpsGet(app.url + BIRTH, {
      ca: ca.cert,
      headers: { 'x-auth-username': 'jo', 'x-auth-aud': 'svc' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
  });
});

describe('the TLS settings', () => {
  const refused = (env: Record<string, string>, message: RegExp) =>
    assert.throws(
      () => loadConfig(env),
      (error: Error) => error instanceof ConfigError && message.test(error.message),
      JSON.stringify(env),
    );

  test('the files are read and checked when the configuration loads', () => {
    const config = loadConfig({ TLS_CERT: server.certPath, TLS_KEY: server.keyPath, TLS_CLIENT_CA: ca.certPath });
    assert.deepEqual(config.tls, { cert: server.cert, key: server.key, clientCa: ca.cert });
    refused({ TLS_CERT: server.certPath }, /TLS_KEY is not set: TLS_CERT and TLS_KEY go together/);
    refused(
      { TLS_CERT: server.certPath, TLS_KEY: '/nonexistent/key.pem' },
      /TLS_KEY="\/nonexistent\/key.pem": the file cannot be read \(ENOENT\)/,
    );
    refused(
      { TLS_CERT: server.certPath, TLS_KEY: clients.good.keyPath },
      /TLS_KEY=.*: the key is not the one of the certificate in TLS_CERT/,
    );
    refused({ TLS_CERT: server.keyPath, TLS_KEY: server.keyPath }, /TLS_CERT=.*: the file holds no PEM certificate/);
    refused(
      { TLS_CERT: server.certPath, TLS_KEY: server.certPath },
      /TLS_KEY=.*: the file holds no unencrypted PEM private key/,
    );
    refused(
      { TLS_CERT: server.certPath, TLS_KEY: server.keyPath, TLS_CLIENT_CA: ca.keyPath },
      /TLS_CLIENT_CA=.*: the file holds no PEM certificate/,
    );
    refused({ TLS_CLIENT_CA: ca.certPath }, /TLS_CLIENT_CA is set without TLS_CERT and TLS_KEY/);
  });

  test('REQUIRE_BOUND_TOKENS: oidc only, and only with client certificates', () => {
    const oidc = { AUTH_MODE: 'oidc', OIDC_ISSUER: 'https://id.example.gov.uk', OIDC_AUDIENCE: AUDIENCE };
    refused({ ...oidc, REQUIRE_BOUND_TOKENS: 'true' }, /REQUIRE_BOUND_TOKENS is true without TLS_CLIENT_CA/);
    refused({ REQUIRE_BOUND_TOKENS: 'true' }, /REQUIRE_BOUND_TOKENS is set, but AUTH_MODE is mock, not oidc/);
    refused({ ...oidc, REQUIRE_BOUND_TOKENS: 'yes' }, /REQUIRE_BOUND_TOKENS="yes"/);
    const auth = loadConfig({
      ...oidc,
      REQUIRE_BOUND_TOKENS: 'true',
      TLS_CERT: server.certPath,
      TLS_KEY: server.keyPath,
      TLS_CLIENT_CA: ca.certPath,
    }).auth;
    assert.ok(auth?.mode === 'oidc' && auth.requireBoundTokens);
    const relaxed = loadConfig(oidc).auth;
    assert.ok(relaxed?.mode === 'oidc' && !relaxed.requireBoundTokens, 'off by default');
  });
});
