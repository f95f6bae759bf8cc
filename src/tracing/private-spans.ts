/**
 * What of a span leaves the process. Instrumentations record more than this service may tell (a
 * URL with its query string, which here holds names and dates of birth; an SQL statement; an
 * error's message), so every span passes this allow-list on its way to the exporter: the
 * attributes named below and no others, URLs without their query and without the system numbers in
 * their paths, no events, no status message, no link attributes. A new instrumentation's attributes are
 * dropped until they are named here.
 */
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Attributes } from '@opentelemetry/api';

/** Attributes kept as they are: methods, routes, status codes, peers, the database's name, counts. */
const KEPT = new Set([
  'http.request.method',
  'http.method',
  'http.response.status_code',
  'http.status_code',
  'http.route',
  'url.scheme',
  'server.address',
  'server.port',
  'net.peer.name',
  'net.peer.port',
  'network.protocol.version',
  'db.system',
  'db.system.name',
  'db.name',
  'db.namespace',
  'db.operation.name',
  'fastify.type',
  'fastify.root',
  'hook.name',
  'service.name',
]);

/** Attributes kept as privateUrl makes them. */
const URLS = new Set(['url.full', 'url.path', 'http.url', 'http.target']);

/** The service's own attributes (tracing/spans.ts), which name types and counts only. */
const OWN = 'lev.';

/**
 * A URL without its query string and fragment, and with every path segment made of digits alone
 * written `{id}`: a lookup's path holds the record's system number, and a trace that says which
 * registration a caller read is as personal as the record (the audit trail is the place for that).
 */
const privateUrl = (value: string) => value.replace(/[?#].*$/s, '').replace(/\/\d+(?=\/|$)/g, '/{id}');

/** The attributes of `attributes` that may leave the process. */
export function privateAttributes(attributes: Attributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (KEPT.has(key) || key.startsWith(OWN)) kept[key] = value;
    else if (URLS.has(key) && typeof value === 'string') kept[key] = privateUrl(value);
  }
  return kept;
}

/** The span as it may leave the process: itself for everything but what is listed above. */
export function privateSpan(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    attributes: { value: privateAttributes(span.attributes), enumerable: true },
    events: { value: [], enumerable: true },
    status: { value: { code: span.status.code }, enumerable: true },
    links: { value: span.links.map(({ context }) => ({ context, attributes: {} })), enumerable: true },
  }) as ReadableSpan;
}

/** An exporter that hands `inner` each span as privateSpan makes it. */
export function privateExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => inner.export(spans.map(privateSpan), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}
