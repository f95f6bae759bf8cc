/**
 * Property test of the verification routes: whatever a caller sends (any
 * parameters, known or not, repeated, any Unicode or bytes, any identity
 * headers and roles, fast enough to meet the rate limit), the answer is 200,
 * 400, 401, 403 or 429, a 200 is exactly {"verified":true} or
 * {"verified":false}, and every other answer is {code, message}. In proxy
 * mode (app.inject comes from the trusted 127.0.0.1), so roles matter.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import fc from 'fast-check';
import { buildApp } from '../../src/app.ts';
import { compileVerification } from '../../src/records/verification.ts';
import { filledStore, suiteContext, testConfig } from '../helper.ts';
import { builtInTypes as records } from '../record-types.ts';

const ALLOWED = new Set([200, 400, 401, 403, 429]);
const BODIES = new Set(['{"verified":true}', '{"verified":false}']);

const context = suiteContext();
let app: Awaited<ReturnType<typeof buildApp>>;
before(async () => {
  const store = await filledStore(context, 'memory');
  // A small bucket for some clients to empty.
  app = await buildApp(
    testConfig({
      AUTH_MODE: 'proxy',
      TRUSTED_PROXIES: '127.0.0.1',
      RATE_LIMIT_PER_MINUTE: '60',
      RATE_LIMIT_BURST: '200',
    }),
    { backend: store, descriptions: store.descriptions },
  );
  context.after(() => app.close());
});

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const percentEncode = (text: string) =>
  Array.from(Buffer.from(text, 'utf8'))
    .map((byte) =>
      byte < 0x80 && UNRESERVED.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).padStart(2, '0')}`,
    )
    .join('');

const PLAUSIBLE = [
  'Ashworth',
  'Eleanor',
  'Eleanor Rose',
  '2008-08-08',
  '123456789',
  'Kestlewick',
  'Merridew',
  'Daniel',
  'Kingsley',
  'Sophie',
  "O'Donoghue",
  'Zoë',
  '-',
  "'",
  ' ',
];
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ...PLAUSIBLE),
  fc.integer({ min: 90, max: 1200 }).map((n) => 'a'.repeat(n)),
  fc
    .tuple(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
);
const encoded = fc.oneof(
  { weight: 6, arbitrary: text.map(percentEncode) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 12 })
      .map((bytes) => Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom('%', '%G1', '%C0%AF', '%ED%A0%80') },
);

const PARAMETERS = [...new Set(records.flatMap((record) => compileVerification(record).parameters.map((p) => p.name)))];
const extras = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...PARAMETERS), encoded) },
    { weight: 1, arbitrary: fc.tuple(text.map(percentEncode), encoded) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'surname[]', ''), encoded) },
  ),
  { maxLength: 6 },
);
const wellFormed = fc.oneof(
  fc.constantFrom(...PLAUSIBLE.slice(0, 12)),
  fc
    .date({ min: new Date('1900-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
);

/**
 * A type and a query: its required parameters, mostly with values of the right form (so that answers are
 * often 200), and any others.
 */
const request = fc.constantFrom(...records.map((record) => compileVerification(record))).chain((compiled) =>
  fc
    .tuple(
      fc.record(
        Object.fromEntries(
          compiled.parameters
            .filter((p) => p.required)
            .map((p) => [
              p.name,
              fc.oneof({ weight: 5, arbitrary: wellFormed.map(percentEncode) }, { weight: 1, arbitrary: encoded }),
            ]),
        ),
        { requiredKeys: [] },
      ),
      extras,
    )
    .map(([base, more]) => ({
      type: compiled.description.name,
      search: [...Object.entries(base), ...more].map(([name, value]) => `${name}=${value}`).join('&'),
    })),
);

const headerValue = fc.oneof(
  fc.constantFrom(
    'someone',
    'client-a',
    'client-b',
    'lev-api',
    'birth',
    'birth-verify',
    'death-verify,marriage',
    ' ',
    ',',
  ),
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
);
const headers = fc.oneof(
  fc.record({
    'x-auth-username': fc.constantFrom('someone', 'someone-else'),
    'x-auth-aud': fc.constantFrom('client-a', 'client-b', 'client-c'),
    'x-auth-roles': fc.constantFrom(
      '',
      'birth',
      'birth-verify',
      'death-verify,marriage-verify,partnership',
      'full-details',
      'birth,death,marriage,partnership',
    ),
  }),
  fc.dictionary(
    fc.constantFrom('x-auth-username', 'x-auth-aud', 'x-auth-roles', 'x-auth-groups', 'x-original-client'),
    headerValue,
  ),
);

test('any request: 200 with exactly {"verified":…}, or 400/401/403/429 with {code, message}', async () => {
  const seen = new Set<number>();
  await fc.assert(
    fc.asyncProperty(request, headers, async ({ type, search }, given) => {
      const response = await app.inject({ method: 'GET', url: `/v1/verification/${type}?${search}`, headers: given });
      const where =
        `${type}?${search.slice(0, 200)} ${JSON.stringify(given)} ` +
        `→ ${response.statusCode} ${response.body.slice(0, 200)}`;
      assert.ok(ALLOWED.has(response.statusCode), where);
      seen.add(response.statusCode);
      if (response.statusCode === 200) {
        assert.ok(BODIES.has(response.body), where);
        assert.equal(response.headers['content-type'], 'application/json', where);
      } else {
        assert.deepEqual(Object.keys(JSON.parse(response.body)), ['code', 'message'], where);
      }
    }),
    { numRuns: 1500 },
  );
  // The runs reached every kind of answer, so the property was tested on each.
  assert.deepEqual([...seen].sort(), [200, 400, 401, 403, 429]);
});
