/**
 * The served /openapi.json as the oracle, the way Schemathesis uses a document (which cannot be
 * installed here: PyPI is out of reach), over a real socket: requests are generated from each
 * operation's parameters (fast-check), and each is held to what the document says of it:
 *
 * - one that breaks a parameter's schema (a required one missing, a value its schema forbids) is
 *   refused (400): what the document forbids, the service refuses;
 * - any other is accepted, or refused with one of the rules across parameters that the
 *   operation's description quotes: what the document allows, the service takes;
 * - each rule the document quotes is what the service answers to its example;
 * - every answer's status is one the operation documents, and its body valid by that answer's schema;
 * - a method a path does not document is answered 405 with an Allow header and the error body,
 *   whatever body it carries (QUERY and POST with bodies of any type, and CONNECT);
 * - a broken percent-escape anywhere in the URL of any operation is a documented 400.
 *
 * CONFORMANCE_RUNS sets the requests per operation (60 by default).
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { generateKeyPairSync } from 'node:crypto';
import { describe, test } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import fc from 'fast-check';
import { parseHolderKey } from '../../src/credentials/holder-key.ts';
import { NAME_PATTERN } from '../../src/http/parameters.ts';
import { mockRecords } from '../../src/mock/dataset.ts';
import { normaliseName } from '../../src/records/normalise.ts';
import { CALLER, sharedApp } from '../helper.ts';
import { builtInScenarios, builtInTypes, searchableScenarios as scenarios } from '../record-types.ts';

const addFormats = formatsModule as unknown as typeof formatsModule.default;
const RUNS = Number(process.env.CONFORMANCE_RUNS ?? 60);

type Json = Record<string, any>;

interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly required: boolean;
  readonly schema: Json;
}

/** A rule across parameters, as the operation's description quotes it: its message, and a query that breaks it. */
interface Refusal {
  readonly message: string;
  readonly example: Record<string, string>;
}

interface Operation {
  readonly path: string;
  readonly parameters: readonly Parameter[];
  readonly responses: Json;
  readonly refusals: readonly Refusal[];
}

let document: Json;
const app = sharedApp(async (running) => {
  const response = await running.get('/openapi.json', {});
  assert.equal(response.status, 200);
  document = response.body;
  // One credential issued, so that status list 1 exists and its requests can be answered 200.
  const issued = await running.get(`/v1/credentials/birth/${IDS[0]}`, CALLER);
  assert.equal(issued.status, 200, issued.text);
});

// ---------------------------------------------------------------------------
// The oracle: the document's own schemas
// ---------------------------------------------------------------------------

const DOCUMENT_ID = 'lev:served-openapi';
let compiled: Ajv2020 | undefined;
/** JSON Schema 2020-12 (OpenAPI 3.1's dialect) holding the whole document, so its references resolve. */
function ajv(): Ajv2020 {
  if (compiled) return compiled;
  compiled = new Ajv2020({ strict: false, allErrors: false });
  addFormats(compiled);
  compiled.addSchema({ ...document, $id: DOCUMENT_ID });
  return compiled;
}
const validators = new Map<Json, ValidateFunction>();
const validatorOf = (schema: Json) => {
  let validate = validators.get(schema);
  if (!validate) validators.set(schema, (validate = ajv().compile(schema)));
  return validate;
};

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The refusals a description quotes: “message” (e.g. query). */
function refusalsOf(description: string | undefined): Refusal[] {
  return [...(description ?? '').matchAll(/“([^”]+)” \(e\.g\. ([^)]*)\)/g)].map(([, message, example]) => ({
    message,
    example: Object.fromEntries(new URLSearchParams(example)),
  }));
}

/** The GET operations: the wallet pick-up's POSTs are held to OpenID4VCI by test/http/wallet/. */
function operations(): Operation[] {
  return Object.entries(document.paths as Json)
    .filter(([, item]) => item.get)
    .map(([path, item]) => ({
      path,
      parameters: (item.get.parameters ?? []) as Parameter[],
      responses: item.get.responses,
      refusals: refusalsOf(item.get.description),
    }));
}

/**
 * A query string's value as the schema sees it: query parameters arrive as text, so an integer is its
 * decimal digits (leading zeros as any parser reads them).
 */
function typed(schema: Json, value: string): unknown {
  if (schema.type === 'integer') return /^-?[0-9]+$/.test(value) ? Number(value) : value;
  return value;
}

/** Which parameter's schema the request breaks, or undefined when none does. */
function brokenSchema(operation: Operation, values: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const parameter of operation.parameters) {
    if (parameter.in === 'header') continue;
    const value = values[parameter.name];
    if (value === undefined) {
      if (parameter.required) return `${parameter.name} is required`;
      continue;
    }
    if (!validatorOf(parameter.schema)(typed(parameter.schema, value)))
      return `${parameter.name}=${JSON.stringify(value)} breaks its schema`;
  }
  return undefined;
}

/** Why the document forbids the request, parameter by parameter, or undefined when it allows each one. */
function invalidity(operation: Operation, values: Readonly<Record<string, string | undefined>>): string | undefined {
  // A holder key is a public JWK in base64url: what JSON Schema cannot say of it (the JSON inside, the
  // curve, the point) the document says in words, and the service's parser judges.
  const { holderKey } = values;
  const broken = brokenSchema(operation, values);
  if (broken || holderKey === undefined || !('problem' in parseHolderKey(holderKey))) return broken;
  return `holderKey=${JSON.stringify(holderKey)} is not a public key`;
}

// ---------------------------------------------------------------------------
// Requests, and what the document says of their answers
// ---------------------------------------------------------------------------

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

function urlOf(operation: Operation, values: Readonly<Record<string, string | undefined>>): string {
  let path = operation.path;
  const query: string[] = [];
  for (const parameter of operation.parameters) {
    const value = values[parameter.name];
    if (value === undefined) continue;
    // A segment of "." or ".." (escaped or not) is a dot segment: every URL client resolves it away
    // before sending, so no request can carry it as a parameter. Written with a letter beside it instead.
    if (parameter.in === 'path')
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(/^\.{1,2}$/.test(value) ? `${value}x` : value));
    else if (parameter.in === 'query') query.push(`${parameter.name}=${encodeURIComponent(value)}`);
  }
  return query.length ? `${path}?${query.join('&')}` : path;
}

async function get(url: string): Promise<Answer> {
  const response = await fetch(app().url + url, { headers: CALLER });
  return { status: response.status, headers: Object.fromEntries(response.headers), text: await response.text() };
}

/** The answer is one the operation documents, with a body its schema allows. */
function assertDocumented(operation: Operation, answer: Answer, where: string) {
  const status = String(answer.status);
  const documented = operation.responses[status] ?? operation.responses.default;
  assert.ok(
    documented,
    `${where}: ${status} is not among ${operation.path}'s documented answers ` +
      `(${Object.keys(operation.responses).join(', ')}): ${answer.text.slice(0, 300)}`,
  );
  const content = documented.content as Json | undefined;
  if (!content) return;
  const type = (answer.headers['content-type'] ?? '').split(';')[0].trim();
  assert.ok(content[type], `${where}: ${status} answered ${type}, documented as ${Object.keys(content).join(', ')}`);
  if (!content[type].schema) return;
  const key = operation.responses[status] ? status : 'default';
  const validate = ajv().getSchema(
    `${DOCUMENT_ID}#/${pointer('paths', operation.path, 'get', 'responses', key, 'content', type, 'schema')}`,
  );
  assert.ok(validate, `${where}: the schema of ${status} compiles`);
  // A JSON answer is held to its schema as JSON; any other (a credential, a status list token) as its text.
  const body = type === 'application/json' || type.endsWith('+json') ? JSON.parse(answer.text) : answer.text;
  assert.ok(
    validate(body),
    `${where}: the ${status} body breaks its documented ` +
      `schema: ${JSON.stringify(validate.errors?.slice(0, 3))} in ${answer.text.slice(0, 300)}`,
  );
}

/** What was sent to each operation: that both sides of the document were exercised is checked too. */
const seen = new Map<string, { valid: number; invalid: number; statuses: Set<number> }>();

/** One generated request: sent, then held to the document. */
async function check(operation: Operation, values: Readonly<Record<string, string | undefined>>) {
  const url = urlOf(operation, values);
  const answer = await get(url);
  const why = invalidity(operation, values);
  const tally = seen.get(operation.path) ?? { valid: 0, invalid: 0, statuses: new Set<number>() };
  seen.set(operation.path, tally);
  tally[why ? 'invalid' : 'valid']++;
  tally.statuses.add(answer.status);
  if (why)
    assert.equal(
      answer.status,
      400,
      `${url}: the document forbids it (${why}), yet it was answered ${answer.status}: ${answer.text.slice(0, 300)}`,
    );
  else if (answer.status === 400) {
    const { message } = JSON.parse(answer.text) as { message: string };
    assert.ok(
      operation.refusals.some((refusal) => refusal.message === message),
      `${url}: each parameter is valid by its schema, and no rule the document quotes gives this refusal: ${message}`,
    );
  }
  assertDocumented(operation, answer, url);
}

// ---------------------------------------------------------------------------
// Generated values: plausible for each schema, and anything at all
// ---------------------------------------------------------------------------

const KNOWN = [...new Set(scenarios.flatMap((s) => Object.values(s.search)))];
const IDS = Object.values(mockRecords(builtInTypes, builtInScenarios)).flatMap((records) =>
  (records as Array<{ id: number }>).map((record) => String(record.id)),
);

/**
 * The edges: names with no letter or digit (U+02BC is a letter to Unicode, dropped as an apostrophe),
 * letters only compatibility maps give, controls, lengths, dates and numbers at their limits.
 */
const EDGES = [
  '',
  ' ',
  '-',
  '---',
  "'",
  '’',
  'ʼ',
  '\ufe74',
  '\uff9e',
  '.,;',
  '- -',
  "'-'",
  '℃',
  '™',
  'Ⅻ',
  '①',
  'ª',
  '²',
  'é',
  'E\u0301',
  '\u0301',
  '\u200d',
  'A\u200dB',
  '\u00ad',
  '李',
  'Δ',
  '\u00a0',
  '\u2028a',
  'a\u0085',
  '\u0000',
  '\t',
  'a\tb',
  'x'.repeat(100),
  'x'.repeat(101),
  'x'.repeat(200),
  'x'.repeat(201),
  'x'.repeat(1000),
  'x'.repeat(1001),
  '2008-08-08',
  '2008-02-29',
  '2009-02-29',
  '0000-01-01',
  '0001-01-01',
  '9999-12-31',
  '2008-8-8',
  '2008-08-08T00:00:00Z',
  '20080808',
  '123456789',
  '0123456789',
  '1',
  '0',
  '00',
  '1'.repeat(18),
  '1'.repeat(19),
  `0${'1'.repeat(18)}`,
  '-1',
  '+1',
  '1e3',
  '1.0',
  '01',
  '100',
  '999',
  '1000',
  '1001',
  'lookup',
  'search',
  'verify',
  'LOOKUP',
  'birth',
  'true',
  '%',
  '%zz',
  '+',
  '&',
  '=',
];

const anything = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGES) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }).filter((text) => !/\p{Cs}/u.test(text)) },
);

/** Holder keys the credentials route takes: a P-256 and an Ed25519 public key, as the parameter carries them. */
const HOLDER_KEYS = (['P-256', 'Ed25519'] as const).map((curve) => {
  const { publicKey } =
    curve === 'P-256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  return Buffer.from(JSON.stringify(publicKey.export({ format: 'jwk' }))).toString('base64url');
});

const isoDate = fc
  .date({ min: new Date('1800-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/** Values the schema is likely to allow, so that valid requests are generated as often as invalid ones. */
function plausible(schema: Json, name?: string): fc.Arbitrary<string> {
  if (name === 'holderKey') return fc.constantFrom(...HOLDER_KEYS);
  if (schema.enum) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.format === 'date')
    return fc.oneof(isoDate, fc.constantFrom('2008-08-08', ...KNOWN.filter((v) => /^\d{4}-/.test(v))));
  if (schema.type === 'integer')
    return fc.integer({ min: (schema.minimum ?? 0) - 2, max: (schema.maximum ?? 1000) + 2 }).map(String);
  const digits = /\[0-9\]\{1,(\d+)\}/.exec(schema.pattern ?? '')?.[1];
  if (digits) return fc.oneof(fc.constantFrom(...IDS), fc.bigInt(0n, 10n ** BigInt(digits) - 1n).map(String));
  // A whole number from 1 (a status list's): the small ones exist.
  if (schema.pattern?.startsWith('^[1-9][0-9]{0,'))
    return fc.oneof(fc.constantFrom('1', '2'), fc.integer({ min: 1, max: 999_999_999 }).map(String));
  return fc.oneof(
    fc.constantFrom(...KNOWN.filter((v) => !/^\d{4}-/.test(v)), 'Anne', 'Eleanor Rose'),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
  );
}

/** Each parameter given or not (a required one mostly given), plausible or anything. */
function requests(operation: Operation): fc.Arbitrary<Record<string, string | undefined>> {
  const parameters = operation.parameters.filter((parameter) => parameter.in !== 'header');
  return fc.record(
    Object.fromEntries(
      parameters.map((parameter) => {
        const value = fc.oneof(
          { weight: 4, arbitrary: plausible(parameter.schema, parameter.name) },
          { weight: 1, arbitrary: anything },
        );
        // A path parameter is always there (an empty one is another path), so anything comes more often.
        if (parameter.in === 'path')
          return [
            parameter.name,
            fc
              .oneof({ weight: 3, arbitrary: plausible(parameter.schema) }, { weight: 2, arbitrary: anything })
              .filter((v) => v !== ''),
          ];
        return [parameter.name, fc.option(value, { nil: undefined, freq: parameter.required ? 12 : 2 })];
      }),
    ),
  );
}

/** A request the document allows, for the tests that change one thing of it. */
function validValues(operation: Operation): Record<string, string> {
  const sample = fc.sample(
    requests(operation).filter((values) => !invalidity(operation, values)),
    { numRuns: 1, seed: 42 },
  )[0];
  return Object.fromEntries(Object.entries(sample).filter(([, value]) => value !== undefined)) as Record<
    string,
    string
  >;
}

/**
 * A raw request over its own connection, for methods fetch will not send; the whole answer, read to the
 * connection's end.
 */
async function raw(request: string): Promise<Answer> {
  const { hostname, port } = new URL(app().url);
  const socket = connect(Number(port), hostname);
  let text = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  await new Promise<void>((resolve, reject) => {
    socket.once('close', () => resolve());
    socket.once('error', reject);
    socket.write(request);
  });
  assert.ok(text, `an answer to ${request.split('\r\n')[0]}`);
  const [head, ...body] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, text: body.join('\r\n\r\n') };
}

const errorBody = (answer: Answer, where: string) => {
  const body = JSON.parse(answer.text);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message'], where);
  return body as { code: string; message: string };
};

// ---------------------------------------------------------------------------

describe('the served OpenAPI document, held to the service', () => {
  test(
    'generated requests on every operation: valid ones ' + 'accepted, invalid ones refused, every answer documented',
    async () => {
      const all = operations();
      assert.ok(all.length > 15, 'the document was read');
      for (const operation of all) {
        await fc.assert(
          fc.asyncProperty(requests(operation), (values) => check(operation, values)),
          { numRuns: operation.parameters.some((p) => p.in !== 'header') ? RUNS : 3 },
        );
      }
      // The generator reached both sides of every operation that takes parameters, and found records.
      for (const operation of all.filter((o) => o.parameters.some((p) => p.in === 'query' || p.in === 'path'))) {
        const tally = seen.get(operation.path);
        assert.ok(
          tally && tally.valid > 0 && tally.invalid > 0,
          `${operation.path}: ${tally?.valid} valid and ${tally?.invalid} invalid requests`,
        );
        assert.ok(tally.statuses.has(200), `${operation.path}: some requests answered 200 (${[...tally.statuses]})`);
      }
    },
  );

  test("every character the names' pattern counts as a letter or digit is one normalisation keeps", () => {
    // Per character, over all of Unicode: a name the pattern allows then never normalises to nothing.
    // (The converse is not asked: a name of symbols only, ℃ or Ⓐ, is refused though NFKD finds letters in it.)
    const pattern = new RegExp(NAME_PATTERN, 'u');
    const emptied: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      if (pattern.test(character) && normaliseName(character) === '')
        emptied.push(`U+${code.toString(16).toUpperCase().padStart(4, '0')}`);
    }
    assert.deepEqual(emptied, [], 'allowed by the pattern, yet normalised to nothing');
  });

  test(
    'names with no letter or digit: the document forbids ' + 'them (a pattern), and the service refuses them',
    async () => {
      const named = operations().filter((operation) =>
        operation.parameters.some((p) => p.in === 'query' && /surname|forenames$|lastname|^place/i.test(p.name)),
      );
      assert.ok(named.length >= 8);
      for (const operation of named) {
        const base = validValues(operation);
        for (const parameter of operation.parameters.filter(
          (p) => p.in === 'query' && /surname|forenames$|lastname|^place/i.test(p.name),
        )) {
          for (const value of ['---', "'", 'ʼ', '.,;', ' ', '- -']) {
            const values = { ...base, [parameter.name]: value };
            assert.ok(
              invalidity(operation, values),
              `${operation.path}: the document forbids ${parameter.name}=${JSON.stringify(value)}`,
            );
            await check(operation, values);
          }
          for (const value of ['O’Brien', 'Ⅻ', 'é', '李']) await check(operation, { ...base, [parameter.name]: value });
        }
      }
    },
  );

  test(
    'each rule across parameters the document quotes: its ' + 'example, the request valid otherwise, gets its message',
    async () => {
      const ruled = operations().filter((operation) => operation.refusals.length > 0);
      // v0's forenames, the change feed's after or since, a printed certificate's holder.
      assert.ok(ruled.length >= 3, ruled.map((operation) => operation.path).join(' '));
      for (const operation of ruled) {
        // The required parameters alone, valid: a rule across parameters is about the optional ones, so it breaks none.
        const required = new Set(operation.parameters.filter((p) => p.required).map((p) => p.name));
        const base = Object.fromEntries(Object.entries(validValues(operation)).filter(([name]) => required.has(name)));
        for (const { message, example } of operation.refusals) {
          const values = { ...base, ...example };
          assert.equal(brokenSchema(operation, values), undefined, `${operation.path}: ${JSON.stringify(values)}`);
          const answer = await get(urlOf(operation, values));
          assert.equal(answer.status, 400, `${urlOf(operation, values)}: ${answer.text}`);
          assert.equal(errorBody(answer, operation.path).message, message);
        }
      }
    },
  );

  test(
    'a method a path does not document: 405 with Allow and the error body, whatever body it carries ' +
      '(QUERY, POST, CONNECT...)',
    async () => {
      const bodies = [
        '',
        'Content-Type: application/xml\r\nContent-Length: 4\r\n\r\n<a/>',
        'Content-Type: application/json\r\nContent-Length: 1\r\n\r\n{',
      ];
      for (const operation of operations()) {
        const target = urlOf(operation, validValues(operation));
        for (const method of ['QUERY', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'CONNECT']) {
          for (const body of method === 'CONNECT' || method === 'TRACE' ? [''] : bodies) {
            const where = `${method} ${target} ${body.split('\r\n')[0]}`;
            const answer = await raw(
              `${method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Auth-Username: ` +
                `a\r\nX-Auth-Aud: b\r\n${body || '\r\n'}`,
            );
            assert.equal(answer.status, 405, `${where}: ${answer.text}`);
            assert.match(answer.headers.allow ?? '', /\bGET\b/, where);
            assert.equal(errorBody(answer, where).code, 'MethodNotAllowed', where);
          }
        }
      }
    },
  );

  test('a broken percent-escape anywhere in the URL of any operation, /healthz too: a documented 400', async () => {
    for (const operation of operations()) {
      const values = validValues(operation);
      const target = urlOf(operation, values);
      const broken = [
        `${target}${target.includes('?') ? '&' : '?'}%`,
        `${target}${target.includes('?') ? '&' : '?'}a=%zz`,
        `${operation.path.replace(/\{[^}]+\}/g, '1')}?%E0%A4%A=1`,
      ];
      for (const parameter of operation.parameters.filter((p) => p.in === 'path'))
        broken.push(operation.path.replace(`{${parameter.name}}`, '%E0%A4%A'));
      for (const url of broken) {
        const answer = await get(url);
        assert.equal(answer.status, 400, `${url}: ${answer.text}`);
        assertDocumented(operation, answer, url);
      }
    }
  });
});
