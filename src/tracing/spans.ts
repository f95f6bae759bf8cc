/**
 * The service's own spans: the parts of a request an operator asks about (identification, the
 * store, the audit write, rendering). Through the OpenTelemetry API alone, which the SDK hands in
 * when it starts (sdk.ts calls traceSpans): with tracing off the API is not even loaded (51 ES
 * modules every process loaded before), and a span here costs one test, its work given a span that
 * records nothing. What a span may carry is named in private-spans.ts: record types and
 * counts, never what a caller asked for or what a record holds.
 */
import type { Attributes, Span, SpanContext } from '@opentelemetry/api';
import { version } from '../version.ts';

/** The OpenTelemetry API, as sdk.ts imports it. */
type Api = typeof import('@opentelemetry/api');

/** The API and the service's tracer, once the SDK has started. */
type Tracer = ReturnType<Api['trace']['getTracer']>;
let started: { readonly api: Api; readonly tracer: Tracer } | undefined;

/** From now on, inSpan makes spans through `api`: the SDK has been started. */
export function traceSpans(api: Api): void {
  started = { api, tracer: api.trace.getTracer('lev-api', version) };
}

/** What `work` is given when nothing is traced: a span that records nothing (the API's own has the same ids). */
const INVALID_CONTEXT: SpanContext = { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 };
const UNTRACED: Span = {
  spanContext: () => INVALID_CONTEXT,
  setAttribute: () => UNTRACED,
  setAttributes: () => UNTRACED,
  addEvent: () => UNTRACED,
  addLink: () => UNTRACED,
  addLinks: () => UNTRACED,
  setStatus: () => UNTRACED,
  updateName: () => UNTRACED,
  end: () => {},
  isRecording: () => false,
  recordException: () => {},
};

/** W3C trace context's flag of a sampled span. */
const SAMPLED = 1;
/** OpenTelemetry's status code of a span that failed. */
const ERROR = 2;

/**
 * Whether a span started now would be part of a sampled trace: the active span (a request's, a
 * load's, a delivery's) was sampled. A request outside the sample enters no context at all
 * (requests.ts), and its parts run as they are, without the span and the context each
 * startActiveSpan makes: at 10% sampling, nine requests in ten. Read from the parent's sampled
 * flag, not whether it records: a parent carried in a traceparent (a webhook delivery continuing
 * its load's trace) records nothing here, yet is sampled.
 */
const withinSampledTrace = (api: Api) => {
  const parent = api.trace.getActiveSpan();
  return parent !== undefined && (parent.spanContext().traceFlags & SAMPLED) !== 0;
};

/** `work` inside a new span named `name`, a child of the active one or the root of a trace. */
function spanned<R>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  work: (span: Span) => R,
  closing?: (result: Awaited<R>) => Attributes,
): R {
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    const ended = (result: Awaited<R>) => {
      if (closing) span.setAttributes(closing(result));
      span.end();
      return result;
    };
    // The error's kind, never its message: a message may quote what was asked.
    const failed = (error: unknown): never => {
      span.setStatus({ code: ERROR });
      span.end();
      throw error;
    };
    let result: R;
    try {
      result = work(span);
    } catch (error) {
      return failed(error);
    }
    return result instanceof Promise ? (result.then(ended, failed) as R) : (ended(result as Awaited<R>) as R);
  });
}

/**
 * Runs `work` inside a span named `name`, a part of the sampled trace it runs in; outside one, or
 * untraced, `work` runs as it is: no wrapper and no promise of its own, since Node 20 visits every
 * promise a request makes once tracing is on, sampled or not (docs/performance.md#tracing). The
 * span ends when `work` returns or, when it returns a promise, once that settles; it is marked as
 * an error if either fails. `closing`, where given, names attributes of the result (how many
 * records were found) as the span ends. Traces begin only at requests.ts's request span and at
 * inTrace.
 */
export function inSpan<R>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => R,
  closing?: (result: Awaited<R>) => Attributes,
): R {
  if (!started || !withinSampledTrace(started.api)) return work(UNTRACED);
  return spanned(started.tracer, name, attributes, work, closing);
}

/** The active span's W3C traceparent, to be kept with what it makes (a load's events); none untraced. */
export function activeTraceParent(): string | undefined {
  if (!started) return undefined;
  const { propagation, context } = started.api;
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * A server span for a request whose headers are `headers`, continuing the trace their traceparent
 * names: `within` runs the request on in its context, `ended` ends it with the status sent (none
 * when the caller went first). Undefined when untraced or when the sampler leaves the request out,
 * which then enters no context at all (requests.ts); unless `passOnUnsampled`, for a process that
 * calls another within its requests (the pages calling the API): an unsampled request then enters
 * the unsampled span's context, so that its calls carry the decision on (a traceparent flagged not
 * sampled) rather than leave the next process to begin traces of its own.
 */
export function requestSpan(
  headers: Record<string, string | string[] | undefined>,
  attributes: Attributes,
  passOnUnsampled: boolean,
): { within(go: () => void): void; ended(statusCode: number | undefined): void } | undefined {
  if (!started) return undefined;
  const { context, propagation, trace, ROOT_CONTEXT, SpanKind } = started.api;
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = started.tracer.startSpan('request', { kind: SpanKind.SERVER, attributes }, parent);
  const within = (go: () => void) => context.with(trace.setSpan(parent, span), go);
  if (!span.isRecording()) return passOnUnsampled ? { within, ended: () => {} } : undefined;
  return {
    within,
    ended: (statusCode) => {
      if (statusCode !== undefined) span.setAttribute('http.response.status_code', statusCode);
      // The status alone, as for every span here.
      if (statusCode !== undefined && statusCode >= 500) span.setStatus({ code: ERROR });
      span.end();
    },
  };
}

/**
 * Runs `work` inside a span named `name` that begins a trace (sampled as the sampler decides), or,
 * where `traceParent` is given (kept by activeTraceParent), continues the trace it names: a load,
 * and a webhook delivery continuing its load's trace.
 */
export function inTrace<T>(
  traceParent: string | undefined,
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!started) return work(UNTRACED);
  const { context, propagation, ROOT_CONTEXT } = started.api;
  const parent = traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }) : ROOT_CONTEXT;
  const { tracer } = started;
  return context.with(parent, () => spanned(tracer, name, attributes, work));
}
