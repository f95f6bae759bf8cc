/**
 * Nothing a caller searched for reaches the logs: the app logs to a pino
 * instance whose lines are captured here, searches with distinctive names and
 * dates are run (found and not found, valid and not), and no line may hold
 * any of those names or dates, the ids of the records found, or a token.
 * Rejected tokens are still logged usefully: which check failed, by name.
 */
import assert from 'node:assert/strict';
import { type JsonWebKey, createPublicKey } from 'node:crypto';
import { Writable } from 'node:stream';
import { before, test } from 'node:test';
import { SignJWT, base64url } from 'jose';
import pino from 'pino';
import type { Config } from '../../src/config/index.ts';
import { CALLER, type RunningApp, type TestStore, filledStore, startApp, suiteContext, testConfig } from '../helper.ts';
import { AUDIENCE, type TestIssuer, startIssuer } from './issuer.ts';

const context = suiteContext();
let issuer: TestIssuer;
let store: TestStore;
before(async () => {
  issuer = await startIssuer();
  context.after(() => issuer.close());
  store = await filledStore(context, 'memory');
});

/** The app with a pino logger at trace level whose every line is kept. */
async function loggedApp(config: Config): Promise<{ app: RunningApp; lines: string[] }> {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const app = await startApp(context, store, config, pino({ level: 'trace' }, stream));
  return { app, lines };
}

/** Searches whose every term is distinctive: [path, terms that must not be logged]. */
const SEARCHES: Array<[string, string[]]> = [
  // Found: the terms, and the ids of the records in the answer, must stay out of the logs.
  [
    '/v1/registration/birth?surname=Marsden&forenames=George%20Henry&dateOfBirth=2010-03-14',
    ['Marsden', 'George', '2010-03-14'],
  ],
  [
    '/v1/registration/birth?surname=Llewellyn&forenames=Poppy&dateOfBirth=2012-02-29',
    ['Llewellyn', 'Poppy', '2012-02-29'],
  ],
  [
    '/api/v0/events/birth?lastname=Ashworth&forename1=Eleanor&dateofbirth=2008-08-08',
    ['Ashworth', 'Eleanor', '2008-08-08'],
  ],
  ['/v1/registration/death?surname=Carlyle&forenames=Edwin&date=2017-02-09', ['Carlyle', 'Edwin', '2017-02-09']],
  [
    '/v1/registration/marriage?surname=fairweather&forenames=LUCY&dateOfMarriage=2012-09-01',
    ['fairweather', 'LUCY', '2012-09-01'],
  ],
  // Not found.
  [
    '/v1/registration/birth?surname=Quillfeather&forenames=Zebediah&dateOfBirth=1923-04-17',
    ['Quillfeather', 'Zebediah', '1923-04-17'],
  ],
  [
    '/v1/registration/partnership?surname=Thistlewaite&forenames=Ottoline&dateOfPartnership=1999-12-13',
    ['Thistlewaite', 'Ottoline', '1999-12-13'],
  ],
  // Refused: an impossible date, an over-long name, a repeated parameter.
  [
    '/v1/registration/birth?surname=Ravenscroft&forenames=Isolde&dateOfBirth=2011-02-30',
    ['Ravenscroft', 'Isolde', '2011-02-30'],
  ],
  [
    `/v1/registration/death?surname=${'Wolstenholme'.repeat(10)}&forenames=Peregrine&date=1966-06-06`,
    ['Wolstenholme', 'Peregrine', '1966-06-06'],
  ],
  [
    '/v1/registration/birth?surname=Fenwick&surname=Blenkinsop&forenames=Ambrose&dateOfBirth=1944-10-10',
    ['Fenwick', 'Blenkinsop', 'Ambrose', '1944-10-10'],
  ],
  // Lookups: the id is in the path.
  ['/v1/registration/death/999999061', ['999999061']],
  ['/v1/registration/birth/999999020', ['999999020']],
  ['/v1/registration/marriage/888777666', ['888777666']],
];

/** Runs every search; returns the terms and found ids that must not appear in the logs. */
async function runSearches(app: RunningApp, headers: Record<string, string>): Promise<string[]> {
  const secret: string[] = [];
  for (const [path, terms] of SEARCHES) {
    const response = await app.get(path, headers);
    assert.ok([200, 400, 404].includes(response.status), `${path}: ${response.status}`);
    secret.push(...terms);
    const found = Array.isArray(response.body) ? response.body : response.status === 200 ? [response.body] : [];
    for (const record of found) secret.push(String(record.id ?? record.systemNumber));
  }
  assert.ok(secret.length > 40);
  return secret;
}

function assertNoneLogged(lines: string[], secret: string[]) {
  assert.ok(lines.length >= SEARCHES.length, 'one line per request at least');
  for (const line of lines) {
    for (const term of secret) assert.ok(!line.toLowerCase().includes(term.toLowerCase()), `'${term}' logged: ${line}`);
  }
}

test('mock mode: no searched name, date or found id is logged', async () => {
  const { app, lines } = await loggedApp(testConfig({ LOG_LEVEL: 'trace' }));
  const secret = await runSearches(app, { ...CALLER, 'x-auth-roles': 'full-details' });
  assertNoneLogged(lines, secret);
  assert.ok(
    lines.some((line) => JSON.parse(line).route === '/v1/registration/birth'),
    'the route pattern is logged',
  );
});

test('oidc mode: neither the searches nor any token is logged; a rejected token logs which check failed', async () => {
  const { app, lines } = await loggedApp(
    testConfig({ LOG_LEVEL: 'trace', AUTH_MODE: 'oidc', OIDC_ISSUER: issuer.url, OIDC_AUDIENCE: AUDIENCE }),
  );
  const token = await issuer.token('everything');
  const secret = await runSearches(app, { authorization: `Bearer ${token}` });
  const now = Math.floor(Date.now() / 1000);
  const expired = await issuer.sign({ iat: now - 900, exp: now - 600 });
  const wrongAudience = await issuer.sign({ aud: 'someone-else' });
  // The allow-list refuses these before any key is looked for (the RSA key would refuse them too).
  const [, payload] = expired.split('.');
  const unsecured = `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${payload}.`;
  const pem = createPublicKey({ key: issuer.signingKey.publicJwk as JsonWebKey, format: 'jwk' }).export({
    type: 'spki',
    format: 'pem',
  });
  const hmac = await new SignJWT({ iss: issuer.url, aud: AUDIENCE, azp: 'x', sub: 'x' })
    .setProtectedHeader({ alg: 'HS256', kid: issuer.signingKey.kid })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(String(pem)));
  for (const bad of [expired, wrongAudience, unsecured, hmac]) {
    assert.equal(
      (
        await app.get('/v1/registration/birth?surname=Quillfeather&forenames=Zebediah&dateOfBirth=1923-04-17', {
          authorization: `Bearer ${bad}`,
        })
      ).status,
      401,
    );
  }
  // Tokens, whole or in part (a signature alone is a secret's worth), and their claims' values.
  for (const jwt of [token, expired, wrongAudience, hmac]) secret.push(...jwt.split('.').filter(Boolean));
  secret.push('someone-else');
  assertNoneLogged(lines, secret);
  const reasons = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'Unauthorized');
  assert.deepEqual(
    reasons.map((entry) => [entry.err.code, entry.err.claim]),
    [
      ['ERR_JWT_EXPIRED', 'exp'],
      ['ERR_JWT_CLAIM_VALIDATION_FAILED', 'aud'],
      ['ERR_JOSE_ALG_NOT_ALLOWED', undefined],
      ['ERR_JOSE_ALG_NOT_ALLOWED', undefined],
    ],
  );
});
