/**
 * The OpenAPI document against what the app really serves: every route is
 * documented, and real responses (lookups and searches, with and without
 * full-details, blocked records, errors) validate against the document's own
 * schemas, which forbid undescribed keys, so the response allow-list and the
 * document agree. Also /docs, /metrics, /healthz and /readiness.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { mockRecords } from '../../../src/mock/dataset.ts';
import type { ViewDescription } from '../../../src/records/views.ts';
import { views, builtInTypes, builtInScenarios, searchableScenarios as scenarios } from '../../record-types.ts';
import { CALLER, FULL_DETAILS, sharedApp } from '../../helper.ts';

const addFormats = formatsModule as unknown as typeof formatsModule.default;

type Json = Record<string, any>;

let document: Json;
const app = sharedApp(async (running) => {
  const response = await running.get('/openapi.json', {});
  assert.equal(response.status, 200, response.text);
  document = response.body;
});

/** Every GET route the app serves, read from Fastify's route tree, with `:param` written `{param}` as OpenAPI does. */
function servedGetRoutes(): string[] {
  const tree = app().app.printRoutes({ commonPrefix: false });
  const segments: string[] = [];
  const routes: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    segments.length = depth;
    segments.push(match[2]);
    const methods = (match[3] ?? '').split(',').map((method) => method.trim());
    if (methods.includes('GET') || methods.includes('POST'))
      routes.push(segments.join('').replace(/:([A-Za-z0-9_]+)/g, '{$1}'));
  }
  return routes;
}

// ---------------------------------------------------------------------------
// Validation against the document
// ---------------------------------------------------------------------------

const DOCUMENT_ID = 'lev:openapi';
let ajv: Ajv2020 | undefined;

/** A strict JSON Schema 2020-12 validator holding the whole document, so its `#/components/...` references resolve. */
function validator(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats(ajv);
  // The document's top level is OpenAPI, not JSON Schema: its keys are annotations here.
  for (const keyword of Object.keys(document).filter((key) => !key.startsWith('$'))) ajv.addKeyword(keyword);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  return ajv;
}

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The documented schema of an operation's response, compiled. */
function responseSchema(path: string, status: string): ValidateFunction {
  const operation = document.paths[path]?.get;
  assert.ok(operation, `${path} is documented`);
  const response = operation.responses[status];
  assert.ok(response, `${path} documents a ${status} answer`);
  const validate = validator().getSchema(
    `${DOCUMENT_ID}#/${pointer('paths', path, 'get', 'responses', status, 'content', 'application/json', 'schema')}`,
  );
  assert.ok(validate, `${path} ${status} has a JSON schema`);
  return validate;
}

function assertValid(validate: ValidateFunction, body: unknown, where: string) {
  const ok = validate(body);
  assert.ok(ok, `${where}: ${JSON.stringify(validate.errors?.slice(0, 5), null, 1)}`);
}

const lookupPath = (view: ViewDescription) => `${view.path}/{${view.idParam}}`;
const storedIds = (view: ViewDescription) =>
  ((mockRecords(builtInTypes, builtInScenarios) as unknown as Record<string, Json[]>)[view.record.name] ?? []).map(
    (r) => r.id as number,
  );

const searchQuery = (view: ViewDescription, search: Readonly<Record<string, string>>) =>
  [
    [view.query.surname, search.surname],
    [view.query.forenames, search.forenames],
    [view.query.date, search[view.record.search.dateParam]],
  ]
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');

// ---------------------------------------------------------------------------

describe('/openapi.json', () => {
  test('is an OpenAPI 3.1 document', async () => {
    const response = await app().get('/openapi.json', {});
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.match(document.openapi, /^3\.1\.\d+$/);
    assert.equal(typeof document.info?.title, 'string');
    assert.equal(typeof document.info?.version, 'string');
    assert.ok(document.paths && typeof document.paths === 'object');
    assert.ok(document.components?.schemas && typeof document.components.schemas === 'object');
    // Every schema compiles under strict JSON Schema 2020-12 (the dialect of OpenAPI 3.1).
    for (const name of Object.keys(document.components.schemas)) {
      assert.ok(validator().getSchema(`${DOCUMENT_ID}#/${pointer('components', 'schemas', name)}`), `${name} compiles`);
    }
    const operationIds = Object.values(document.paths).flatMap((item: any) =>
      Object.values(item)
        .map((op: any) => op.operationId)
        .filter(Boolean),
    );
    assert.equal(new Set(operationIds).size, operationIds.length, 'operationIds are unique');
  });

  test(
    'the operations endpoints need no identity; the record ' + 'operations need a token or the two identity headers',
    () => {
      for (const path of ['/healthz', '/readiness', '/metrics', '/openapi.json', '/docs']) {
        assert.deepEqual(document.paths[path].get.security, [], `${path}: security []`);
      }
      assert.deepEqual(document.security, [{ bearerToken: [] }, { usernameHeader: [], clientHeader: [] }]);
      // Swagger UI's Authorize dialog offers every scheme: a token, and each identity header.
      const headers = Object.values(document.components.securitySchemes)
        .filter((scheme: any) => scheme.in === 'header')
        .map((scheme: any) => scheme.name);
      assert.deepEqual(headers.sort(), ['X-Auth-Aud', 'X-Auth-Groups', 'X-Auth-Roles', 'X-Auth-Username']);
      const lookup = document.paths['/v1/registration/birth/{id}'].get;
      const required = lookup.parameters.filter((p: any) => p.in === 'header' && p.required).map((p: any) => p.name);
      assert.deepEqual(required.sort(), ['X-Auth-Aud', 'X-Auth-Username']);
    },
  );

  test("each record field says who may see it: every caller, any authorised caller, or 'full-details'", () => {
    const birth = document.components.schemas.BirthV1;
    assert.match(birth.properties.id.description, /even on a blocked record/);
    assert.match(birth.properties.child.properties.surname.description, /Shown to every authorised caller/);
    assert.match(birth.properties.registrar.properties.signature.description, /Needs the 'full-details' role/);
    assert.match(birth.properties.mother.properties.aliases.description, /Needs the 'full-details' role/);
    const leaves = (schema: any): any[] =>
      schema.properties
        ? Object.values(schema.properties).flatMap((p: any) => (p.$ref ? [] : p.properties ? leaves(p) : [p]))
        : [];
    for (const leaf of leaves(birth))
      assert.match(leaf.description, /Shown to every|Needs the 'full-details' role/, JSON.stringify(leaf));
  });

  test('documents every route the app serves, and only those', async () => {
    // Swagger UI's own assets under /docs/ are not operations, nor are the caseworkers' pages under
    // /ui and GOV.UK Frontend's assets (the route tree prints the static wildcards as '*' and '/ui*').
    const served = servedGetRoutes().filter(
      (path) => !path.startsWith('/docs/') && !path.startsWith('/ui') && !path.startsWith('/assets') && path !== '*',
    );
    assert.ok(served.length > views.length, 'the route tree was read');
    const documented = Object.keys(document.paths);
    assert.deepEqual(
      served.filter((path) => !documented.includes(path)),
      [],
      'served but not documented',
    );
    assert.deepEqual(
      documented.filter((path) => !served.includes(path)),
      [],
      'documented but not served',
    );
    // The API reads; only the wallet pick-up (docs/wallets.md) takes POSTs, and only them.
    const posted = (path: string) => path.startsWith('/v1/wallet/') || path.endsWith('/offer');
    for (const path of documented) {
      assert.deepEqual(
        Object.keys(document.paths[path]),
        [posted(path) ? 'post' : 'get'],
        `${path} documents ${posted(path) ? 'POST' : 'GET'} only`,
      );
    }
  });

  test('documents the parameters of every record route as the routes name them', async () => {
    for (const view of views) {
      const search = document.paths[view.path].get;
      const query = search.parameters.filter((p: Json) => p.in === 'query');
      const names = [view.query.surname, view.query.forenames, view.query.date, ...(view.query.forenameParts ?? [])];
      assert.deepEqual(query.map((p: Json) => p.name).sort(), [...names].sort(), `${view.path} query parameters`);
      const required = query.filter((p: Json) => p.required).map((p: Json) => p.name);
      const expected = [
        view.query.surname,
        view.query.date,
        ...(view.query.forenameParts ? [] : [view.query.forenames]),
      ];
      assert.deepEqual(required.sort(), expected.sort(), `${view.path} required parameters`);
      assert.ok(
        search.responses['200'].headers?.['x-results-truncated'],
        `${view.path} documents the truncation header`,
      );

      const lookup = document.paths[lookupPath(view)].get;
      const [id] = lookup.parameters.filter((p: Json) => p.in === 'path');
      assert.equal(id.name, view.idParam);
      assert.equal(id.required, true);
      for (const status of ['200', '400', '401', '404'])
        assert.ok(lookup.responses[status], `${lookupPath(view)} documents ${status}`);
      for (const status of ['200', '400', '401'])
        assert.ok(search.responses[status], `${view.path} documents ${status}`);
    }
  });
  test(
    'X-Feed-Position: documented on the lookups, searches and verifications that honour it, and its ' +
      'pattern is what the service refuses',
    async () => {
      const operations = Object.entries(document.paths as Json).filter(([, item]) =>
        /^(search|read|verify)[A-Z]/.test(item.get?.operationId ?? ''),
      );
      assert.ok(operations.length >= 8, operations.map(([path]) => path).join(' '));
      for (const [path, item] of operations) {
        const header = (item.get.parameters as Json[]).find(
          (parameter) => parameter.in === 'header' && parameter.name === 'X-Feed-Position',
        );
        assert.ok(header, `${path} documents X-Feed-Position`);
        assert.equal(new RegExp(header.schema.pattern).test('soon'), false);
      }
      const refused = await app().get('/v1/registration/birth/123456789', { ...CALLER, 'x-feed-position': 'soon' });
      assert.equal(refused.status, 400);
      // Named as the document names it, though headers are validated in lower case.
      assert.match(refused.body.message, /^Invalid header 'X-Feed-Position': expected a change-feed event's id/);
      assert.equal(
        (await app().get('/v1/registration/birth/123456789', { ...CALLER, 'x-feed-position': '1' })).status,
        200,
      );
    },
  );
});

describe('real responses validate against the document', () => {
  test('lookups of every mock record, with and without full-details (blocked records included)', async () => {
    for (const view of views) {
      const validate = responseSchema(lookupPath(view), '200');
      const ids = storedIds(view);
      assert.ok(ids.length > 0);
      for (const id of ids) {
        for (const [audience, headers] of [
          ['full-details', FULL_DETAILS],
          ['basic', CALLER],
        ] as const) {
          const response = await app().get(`${view.path}/${id}`, headers);
          assert.equal(response.status, 200, response.text);
          assertValid(validate, response.body, `${view.path}/${id} (${audience})`);
        }
      }
    }
  });

  test('searches of every scenario, with and without full-details', async () => {
    let nonEmpty = 0;
    for (const view of views) {
      const validate = responseSchema(view.path, '200');
      for (const scenario of scenarios.filter((s) => s.type === view.record.name)) {
        for (const headers of [FULL_DETAILS, CALLER]) {
          const response = await app().get(`${view.path}?${searchQuery(view, scenario.search)}`, headers);
          assert.equal(response.status, 200, response.text);
          if (response.body.length) nonEmpty++;
          assertValid(validate, response.body, `${view.path} ${JSON.stringify(scenario.search)}`);
        }
      }
    }
    assert.ok(nonEmpty > 0);
  });

  test('error answers match their documented schema', async () => {
    for (const view of views) {
      const cases: Array<[string, string, Record<string, string>]> = [
        [`${view.path}/abc`, '400', CALLER],
        [`${view.path}/123456789`, '401', {}],
        [`${view.path}/1`, '404', CALLER],
      ];
      for (const [path, status, headers] of cases) {
        const response = await app().get(path, headers);
        assert.equal(String(response.status), status, response.text);
        assertValid(responseSchema(lookupPath(view), status), response.body, `${path} ${status}`);
      }
      const response = await app().get(view.path, CALLER);
      assert.equal(response.status, 400);
      assertValid(responseSchema(view.path, '400'), response.body, `${view.path} without parameters`);
    }
  });

  test('the schemas are strict enough to tell: an undescribed key or a missing group fails', async () => {
    for (const view of views) {
      const validate = responseSchema(lookupPath(view), '200');
      const { body } = await app().get(`${view.path}/123456789`, CALLER);
      assertValid(validate, body, view.path);
      assert.equal(validate({ ...body, undescribed: 'x' }), false, `${view.path}: an extra key is refused`);
      const group = Object.keys(body).find(
        (key) => body[key] && typeof body[key] === 'object' && !Array.isArray(body[key]),
      );
      assert.ok(group, `${view.path} has a group`);
      assert.equal(
        validate({ ...body, [group]: { ...body[group], undescribed: 1 } }),
        false,
        `${view.path}: an extra key in ${group} is refused`,
      );
      const { [group]: _dropped, ...withoutGroup } = body;
      assert.equal(validate(withoutGroup), false, `${view.path}: a missing ${group} is refused`);
    }
  });

  test(
    "the audit report's drill-down: its entries and its errors, the parameters as the route names " + 'them',
    async () => {
      const auditor = { ...CALLER, 'x-auth-username': 'openapi-auditor', 'x-auth-roles': 'audit' };
      await app().get('/v1/registration/birth/123456789', auditor);
      const birth = views.find((view) => view.path === '/v1/registration/birth')!;
      await app().get(
        `${birth.path}?${searchQuery(birth, scenarios.find((s) => s.type === 'birth')!.search)}`,
        auditor,
      );
      const response = await app().get('/api/v0/audit/entries?user=openapi-auditor', auditor);
      assert.equal(response.status, 200, response.text);
      assert.ok(response.body.length >= 2);
      const validate = responseSchema('/api/v0/audit/entries', '200');
      assertValid(validate, response.body, 'audit entries');
      assert.equal(validate([{ ...response.body[0], hash: 'x' }]), false, 'the hash is not part of an entry');
      const refused = await app().get('/api/v0/audit/entries', auditor);
      assert.equal(refused.status, 400);
      assertValid(responseSchema('/api/v0/audit/entries', '400'), refused.body, 'audit entries 400');
      const operation = document.paths['/api/v0/audit/entries'].get;
      const query = operation.parameters.filter((p: Json) => p.in === 'query');
      assert.deepEqual(
        query.map((p: Json) => [p.name, p.required]),
        [
          ['user', true],
          ['from', false],
          ['to', false],
          ['operation', false],
          ['dataset', false],
          ['limit', false],
        ],
      );
      assert.deepEqual(query.find((p: Json) => p.name === 'limit').schema, {
        type: 'integer',
        minimum: 1,
        maximum: 1000,
        default: 100,
        'x-expected': 'a whole number from 1 to 1000',
      });
      assert.ok(operation.responses['200'].headers?.['x-results-truncated'], 'documents the truncation header');
    },
  );

  test('a link is documented as left out, never null, when there is none or the record is blocked', async () => {
    let linked = 0;
    // v0's previousRegistration is a group of two fields, not a link.
    for (const view of views.filter((v) => v.version === 'v1')) {
      const schema = document.components.schemas[view.schemaName];
      for (const key of ['previousRegistration', 'nextRegistration'].filter((k) => k in schema.properties)) {
        linked++;
        assert.ok(!schema.required.includes(key), `${view.schemaName}.${key} is optional`);
        assert.match(
          schema.properties[key].description,
          /left out of a blocked record/,
          `${view.schemaName}.${key} says so`,
        );
        const validate = responseSchema(lookupPath(view), '200');
        const { body } = await app().get(`${view.path}/123456789`, CALLER);
        assert.equal(validate({ ...body, [key]: null }), false, `${view.path}: a null ${key} is refused`);
      }
    }
    assert.ok(linked > 0);
  });
});

describe('/docs', () => {
  test('answers an HTML page that renders this document', async () => {
    const response = await app().get('/docs', {});
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(response.text, /<html[\s>]/i);
    const json = await app().get('/docs/json', {});
    assert.equal(json.status, 200);
    assert.deepEqual(json.body, document, 'the page is fed the same document');
  });
});

describe('/metrics', () => {
  /** The lev_request_duration_seconds_count samples, by their labels. */
  async function counts(): Promise<Map<string, number>> {
    const response = await app().get('/metrics', {});
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const samples = new Map<string, number>();
    for (const line of response.text.split('\n')) {
      const match = /^lev_request_duration_seconds_count\{([^}]*)\} (\d+)$/.exec(line);
      if (!match) continue;
      const labels = Object.fromEntries(
        [...match[1].matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => [name, value]),
      );
      assert.deepEqual(Object.keys(labels).sort(), ['dataset', 'operation', 'status'], line);
      samples.set(`${labels.dataset} ${labels.operation} ${labels.status}`, Number(match[2]));
    }
    return samples;
  }

  test('exposes lev_request_duration_seconds by dataset, operation and status', async () => {
    const before = await counts();
    const requests: Array<[string, string]> = [];
    for (const view of views) {
      requests.push([`${view.path}/123456789`, `${view.record.name} lookup 200`]);
      requests.push([`${view.path}/1`, `${view.record.name} lookup 404`]);
      requests.push([`${view.path}/abc`, `${view.record.name} lookup 400`]);
      requests.push([
        `${view.path}?` +
          `${searchQuery(view, {
            surname: 'Nobody',
            forenames: 'Nemo',
            [view.record.search.dateParam]: '2000-01-01',
          })}`,
        `${view.record.name} search 200`,
      ]);
    }
    const expected = new Map<string, number>();
    for (const [path, key] of requests) {
      await app().get(path);
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    const unauthorised = `${views[0].path}/123456789`;
    await app().get(unauthorised, {});
    const key401 = `${views[0].record.name} lookup 401`;
    expected.set(key401, 1);

    const now = await counts();
    for (const [key, added] of expected) {
      assert.equal((now.get(key) ?? 0) - (before.get(key) ?? 0), added, `${key}: counted`);
    }
    const text = (await app().get('/metrics', {})).text;
    assert.match(text, /^# TYPE lev_request_duration_seconds histogram$/m);
    assert.match(text, /^lev_request_duration_seconds_bucket\{.*le="\+Inf".*\} \d+$/m);
    assert.ok(!/Nobody|Nemo|123456789/.test(text), 'no request value becomes a label');
  });

  test('operational routes are not counted as record requests', async () => {
    const before = await counts();
    await app().get('/healthz', {});
    await app().get('/nowhere', {});
    const now = await counts();
    assert.deepEqual(now, before);
  });
});

describe('health', () => {
  test('/healthz and /readiness answer 200 without an identity', async () => {
    for (const path of ['/healthz', '/readiness']) {
      const response = await app().get(path, {});
      assert.equal(response.status, 200, `${path}: ${response.text}`);
      assert.equal(response.text, 'OK');
    }
  });
});
