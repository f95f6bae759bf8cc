/**
 * The service's own spans: the parts of a request an operator asks about (identification, the
 * store, the audit write, rendering). Through the OpenTelemetry API alone. Until the SDK is started
 * (sdk.ts calls traceSpans) the work runs as it is, given a span that records nothing: the API's
 * no-op tracer still makes a span and enters a context each time, measured at several µs a call on
 * the shared machine, so with tracing off a span here costs one test instead. What a span may
 * carry is named in private-spans.ts: record types and counts, never what a caller asked for or
 * what a record holds.
 */
import {
  type Attributes,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  TraceFlags,
  context,
  propagation,
  trace,
} from '@opentelemetry/api';
import { version } from '../version.ts';

const tracer = trace.getTracer('lev-api', version);
const UNTRACED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
let tracing = false;

/** From now on, inSpan and inSpanSync make spans: the SDK has been started. */
export function traceSpans(): void {
  tracing = true;
}

/**
 * Whether a span started now would record nothing: tracing is off, or the span would be the child
 * of one that was not sampled (a request outside the sample). Its work then runs as it is, without
 * the span and the context each startActiveSpan makes: at 10% sampling, nine requests in ten. Read
 * from the parent's sampled flag, not whether it records: a parent carried in a traceparent (a
 * webhook delivery continuing its load's trace) records nothing here, yet is sampled.
 */
const untraced = () => {
  if (!tracing) return true;
  const parent = trace.getActiveSpan();
  return parent !== undefined && (parent.spanContext().traceFlags & TraceFlags.SAMPLED) === 0;
};

/** Runs `work` inside a span named `name`; the span ends when it settles, marked as an error if it throws. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
  if (untraced()) return work(UNTRACED);
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      // The error's kind, never its message: a message may quote what was asked.
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** As inSpan, for work that is done at once. */
export function inSpanSync<T>(name: string, attributes: Attributes, work: (span: Span) => T): T {
  if (untraced()) return work(UNTRACED);
  return tracer.startActiveSpan(name, { attributes }, (span) => {
    try {
      return work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active span's W3C traceparent, to be kept with what it makes (a load's events); none untraced. */
export function activeTraceParent(): string | undefined {
  if (!tracing) return undefined;
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** As inSpan, with the span a child of the one `traceParent` names (kept by activeTraceParent), where one is given. */
export function inSpanUnder<T>(
  traceParent: string | undefined,
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  if (!tracing || !traceParent) return inSpan(name, attributes, work);
  return context.with(propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }), () =>
    inSpan(name, attributes, work),
  );
}
