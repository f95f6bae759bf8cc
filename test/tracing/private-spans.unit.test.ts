import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { privateAttributes, privateSpan } from '../../src/tracing/private-spans.ts';

test(
  "attributes: methods, routes, status codes and the service's own kept; URLs without their query or " +
    'system numbers; the rest dropped',
  () => {
    assert.deepEqual(
      privateAttributes({
        'http.request.method': 'GET',
        'http.route': '/v1/registration/birth',
        'http.response.status_code': 200,
        'url.path': '/v1/registration/birth?surname=Ashworth&dateOfBirth=2008-08-08',
        'url.full': 'https://receiver.example/hook?token=secret#part',
        'http.target': '/v1/registration/death/123456789',
        'http.url': 'http://localhost:8080/ui/birth/999999001/qr',
        'lev.record.type': 'birth',
        'lev.result.count': 3,
        'db.system': 'postgresql',
        'db.statement': 'SELECT json FROM birth WHERE surname = $1',
        'db.query.text': 'SELECT 1',
        'db.postgresql.values': ['Ashworth'],
        'user_agent.original': 'curl',
        'http.request.header.x-auth-username': 'jo.bloggs',
        'exception.message': 'surname Ashworth',
      }),
      {
        'http.request.method': 'GET',
        'http.route': '/v1/registration/birth',
        'http.response.status_code': 200,
        'url.path': '/v1/registration/birth',
        'url.full': 'https://receiver.example/hook',
        'http.target': '/v1/registration/death/{id}',
        'http.url': 'http://localhost:8080/ui/birth/{id}/qr',
        'lev.record.type': 'birth',
        'lev.result.count': 3,
        'db.system': 'postgresql',
      },
    );
  },
);

test('a span: its identity and timing as they were; no events, no status message, no link attributes', () => {
  const context = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  const span = {
    name: 'request',
    kind: SpanKind.SERVER,
    spanContext: () => context,
    attributes: { 'url.path': '/v1/registration/birth?surname=Ashworth' },
    events: [{ name: 'exception', time: [0, 0], attributes: { 'exception.message': 'Ashworth' } }],
    status: { code: SpanStatusCode.ERROR, message: 'no birth of Ashworth' },
    links: [{ context, attributes: { note: 'Ashworth' } }],
    startTime: [1, 2],
  } as unknown as ReadableSpan;
  const kept = privateSpan(span);
  assert.equal(kept.name, 'request');
  assert.equal(kept.kind, SpanKind.SERVER);
  assert.equal(kept.spanContext(), context);
  assert.deepEqual(kept.startTime, [1, 2]);
  assert.deepEqual(kept.attributes, { 'url.path': '/v1/registration/birth' });
  assert.deepEqual(kept.events, []);
  assert.deepEqual(kept.status, { code: SpanStatusCode.ERROR });
  assert.deepEqual(kept.links, [{ context, attributes: {} }]);
});
