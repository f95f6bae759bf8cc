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

/**
 * The span as it may leave the process: a plain object of the fields an exporter reads, the
 * attributes, events, status and links as listed above. Plain, rather than an object over the span
 * (Object.create), which made V8 treat every span as a prototype and the exporter's reads of it
 * slow: with every request sampled, that and the export were a third of the service's CPU.
 */
export function privateSpan(span: ReadableSpan): ReadableSpan {
  const context = span.spanContext();
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => context,
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: { code: span.status.code },
    attributes: privateAttributes(span.attributes),
    links: span.links.map(({ context: linked }) => ({ context: linked, attributes: {} })),
    events: [],
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** An exporter that hands `inner` each span as privateSpan makes it. */
export function privateExporter(inner: SpanExporter): SpanExporter {
  return {
    export: (spans: ReadableSpan[], done: (result: ExportResult) => void) => inner.export(spans.map(privateSpan), done),
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
}
