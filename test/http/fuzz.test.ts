/**
 * Property tests over every parameter of every record endpoint, on the
 * embedded store over a real socket: whatever a caller sends (any Unicode,
 * control characters, very long or empty values, bytes that are not UTF-8,
 * repeated and unknown parameters, any identity headers), the answer is
 * 200, 400, 401 or 404 (or 414 for the rare URL over 8 KiB, refused before
 * anything else), never a 500, and every error is `{code, message}`.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import type { ViewDescription } from '../../src/records/views.ts';
import { searchableScenarios as scenarios, views } from '../record-types.ts';
import { CALLER, FULL_DETAILS, sharedApp } from '../helper.ts';

const ALLOWED = new Set([200, 400, 401, 404, 414]);
const RUNS = { lookup: 500, search: 1000, names: 300, forenameParts: 300 };

const app = sharedApp();

// ---------------------------------------------------------------------------
// What is sent
// ---------------------------------------------------------------------------

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/** Percent-encodes the UTF-8 bytes of a string, leaving only unreserved characters as they are. */
const percentEncode = (text: string) =>
  Array.from(Buffer.from(text, 'utf8'))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return byte < 0x80 && UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

const CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, i) => String.fromCharCode(i)),
  '\u007f',
  '\u0085',
  '\u009f',
  '\u2028',
  '\u200b',
  '\ufeff',
];
const AWKWARD = [
  '-',
  "'",
  '’',
  ' ',
  '.',
  ',',
  '%',
  '+',
  '&',
  '=',
  '#',
  '/',
  '\\',
  '"',
  'é',
  'ø',
  'ß',
  'Æ',
  'İ',
  'ı',
  '\u0301',
  '😀',
  '中',
  'ا',
];
const KNOWN = [...new Set(scenarios.flatMap((s) => Object.values(s.search)))];

/**
 * Any text: arbitrary Unicode, control characters, awkward punctuation, plausible values, empty and very
 * long strings.
 */
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  {
    weight: 3,
    arbitrary: fc.string({ unit: fc.constantFrom(...CONTROLS, ...AWKWARD, 'a', 'Z', '0', '9'), maxLength: 30 }),
  },
  { weight: 3, arbitrary: fc.constantFrom('', ...KNOWN) },
  { weight: 1, arbitrary: fc.integer({ min: 90, max: 3000 }).map((n) => 'a'.repeat(n)) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...KNOWN), fc.constantFrom(...CONTROLS))
      .map(([known, control]) => known + control),
  },
);

/** A value as it appears in the URL: the encoding of any text, or raw bytes (often not UTF-8), or a broken escape. */
const encoded = fc.oneof(
  { weight: 6, arbitrary: text.map(percentEncode) },
  {
    weight: 1,
    arbitrary: fc
      .uint8Array({ maxLength: 16 })
      .map((bytes) => Array.from(bytes, (b) => `%${b.toString(16).padStart(2, '0')}`).join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom('%', '%G1', '%%', '%2', 'a%', '%E0%A4%A', '%C0%AF', '%ED%A0%80') },
);

const dateText = fc.oneof(
  fc
    .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
  fc
    .tuple(fc.integer({ min: 0, max: 10000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
);

const idText = fc.oneof(
  fc.bigInt({ min: 0n, max: 10n ** 25n }).map(String),
  fc.constantFrom('123456789', '999999020', '999999041', '0', '00123456789', '-1', '1.0', '1e3', ''),
  fc.integer({ min: 1, max: 2000 }).map((n) => '9'.repeat(n)),
  text,
);

/** Header values an HTTP client can send: tab, printable ASCII and Latin-1. */
const headerValue = fc.oneof(
  fc.constantFrom(
    'someone',
    'some-client',
    'lev-api',
    'lev-api,some-client',
    'full-details',
    'full-details,other',
    ' ',
    ',',
  ),
  fc.string({
    unit: fc
      .oneof(fc.constant('\t'), fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
      .map((c) => (typeof c === 'string' ? c : String.fromCharCode(c))),
    maxLength: 60,
  }),
);

const IDENTITY_HEADERS = [
  'x-auth-username',
  'x-original-username',
  'x-auth-aud',
  'x-auth-audience',
  'x-original-client',
  'x-auth-roles',
  'x-auth-groups',
];

/**
 * Identity headers: a valid caller (so requests reach the parameters), none, or any mix of the headers with
 * any values.
 */
const identity = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      { headers: CALLER as Record<string, string>, valid: true },
      { headers: FULL_DETAILS as Record<string, string>, valid: true },
    ),
  },
  { weight: 1, arbitrary: fc.constant({ headers: {} as Record<string, string>, valid: false }) },
  {
    weight: 2,
    arbitrary: fc
      .dictionary(fc.constantFrom(...IDENTITY_HEADERS), headerValue, { maxKeys: IDENTITY_HEADERS.length })
      .map((headers) => ({ headers, valid: undefined as boolean | undefined })),
  },
);

/**
 * Query parameters of a view: its own names (any of them, repeated or not) with plausible or arbitrary
 * values, and unknown names.
 */
function queryOf(view: ViewDescription) {
  const names = [view.query.surname, view.query.forenames, view.query.date, ...(view.query.forenameParts ?? [])];
  const valueFor = (name: string) =>
    name === view.query.date ? fc.oneof(dateText.map(percentEncode), encoded) : encoded;
  const known = fc.constantFrom(...names).chain((name) => valueFor(name).map((value) => `${name}=${value}`));
  const unknown = fc.tuple(text.map(percentEncode), encoded).map(([name, value]) => `${name}=${value}`);
  const oddities = fc.constantFrom(
    '',
    '&',
    '=',
    '==',
    `${view.query.surname}`,
    `${view.query.surname}=`,
    '&&=&',
    `${view.query.forenames}[]=a`,
    '__proto__=1',
    'constructor=x',
  );
  const base = fc.record(Object.fromEntries(names.map((name) => [name, valueFor(name)])), { requiredKeys: [] });
  return fc
    .tuple(
      base,
      fc.array(
        fc.oneof(
          { weight: 4, arbitrary: known },
          { weight: 2, arbitrary: unknown },
          { weight: 1, arbitrary: oddities },
        ),
        { maxLength: 6 },
      ),
    )
    .map(([given, extra]) => [...Object.entries(given).map(([name, value]) => `${name}=${value}`), ...extra].join('&'));
}

// ---------------------------------------------------------------------------
// What must come back
// ---------------------------------------------------------------------------

async function assertAnswer(
  path: string,
  headers: Record<string, string>,
  validCaller: boolean | undefined,
  expect: 'object' | 'array',
) {
  const response = await app().get(path, headers);
  const where =
    `${path.slice(0, 300)} ${JSON.stringify(headers).slice(0, 300)} ` +
    `→ ${response.status} ${response.text.slice(0, 300)}`;
  assert.ok(ALLOWED.has(response.status), where);
  assert.equal(response.headers.get('cache-control'), 'no-store', where);
  if (validCaller === true) assert.notEqual(response.status, 401, where);
  if (validCaller === false && response.status !== 414) assert.equal(response.status, 401, where);
  if (response.status === 200) {
    if (expect === 'array') assert.ok(Array.isArray(response.body), where);
    else
      assert.ok(
        typeof response.body === 'object' && response.body !== null && typeof response.body.id === 'number',
        where,
      );
    return response;
  }
  assert.ok(response.body && typeof response.body === 'object' && !Array.isArray(response.body), where);
  assert.deepEqual(Object.keys(response.body).sort(), ['code', 'message'], where);
  assert.equal(typeof response.body.code, 'string', where);
  assert.equal(typeof response.body.message, 'string', where);
  return response;
}

/** A 400 about well-formed parameters names one of them. */
function assertNamesAParameter(response: { status: number; body: any }, view: ViewDescription) {
  if (response.status !== 400) return;
  const names = [view.query.surname, view.query.forenames, view.query.date, ...(view.query.forenameParts ?? [])];
  assert.ok(
    names.some((name) => response.body.message.includes(`'${name}'`)),
    `${response.body.message} names a parameter`,
  );
}

/** A view, drawn by its path so that counterexamples stay readable. */
const viewArbitrary = fc
  .constantFrom(...views.map((view) => view.path))
  .map((path) => views.find((view) => view.path === path) as ViewDescription);

/**
 * Whether a path segment can be decoded at all; one that cannot is refused before routing, so before the
 * identity check.
 */
const decodable = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

describe('fuzzing the record endpoints never yields anything but 200, 400, 401 or 404', () => {
  test('lookups: any id, any identity', async () => {
    await fc.assert(
      fc.asyncProperty(viewArbitrary, fc.oneof(idText.map(percentEncode), encoded), identity, async (view, id, who) => {
        await assertAnswer(`${view.path}/${id}`, who.headers, decodable(id) ? who.valid : undefined, 'object');
      }),
      { numRuns: RUNS.lookup },
    );
  });

  test('searches: any parameters of every endpoint, repeated or unknown, any identity', async () => {
    await fc.assert(
      fc.asyncProperty(
        viewArbitrary.chain((view) => queryOf(view).map((query) => `${view.path}?${query}`)),
        identity,
        async (path, who) => {
          await assertAnswer(path, who.headers, who.valid, 'array');
        },
      ),
      { numRuns: RUNS.search },
    );
  });

  test('well-formed searches with arbitrary names succeed or name a parameter', async () => {
    await fc.assert(
      fc.asyncProperty(viewArbitrary, text, text, dateText, identity, async (view, surname, forenames, date, who) => {
        const path =
          `${view.path}?${view.query.surname}=${percentEncode(surname)}&${view.query.forenames}=` +
          `${percentEncode(forenames)}&${view.query.date}=${percentEncode(date)}`;
        const response = await assertAnswer(path, who.headers, who.valid, 'array');
        if (who.valid) assertNamesAParameter(response, view);
      }),
      { numRuns: RUNS.names },
    );
  });

  test('v0 forename1..forename4 in any combination', async () => {
    const v0 = views.find((view) => view.query.forenameParts);
    assert.ok(v0?.query.forenameParts);
    const parts = v0.query.forenameParts;
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(v0.query.forenames, ...parts),
          fc.oneof(encoded, fc.constantFrom('George', 'Arthur', '')),
          { maxKeys: parts.length + 1 },
        ),
        fc.constantFrom(...KNOWN),
        async (forenames, surname) => {
          const query = Object.entries({
            ...forenames,
            [v0.query.surname]: percentEncode(surname),
            [v0.query.date]: '2010-03-14',
          })
            .map(([name, value]) => `${name}=${value}`)
            .join('&');
          assertNamesAParameter(await assertAnswer(`${v0.path}?${query}`, CALLER, true, 'array'), v0);
        },
      ),
      { numRuns: RUNS.forenameParts },
    );
  });
});
