/**
 * The service's own spans: the parts of a request an operator asks about (identification, the
 * store, the audit write, rendering). Through the OpenTelemetry API alone: until the SDK is started
 * (tracing/start.ts) its tracer makes no spans, so with tracing off a span here costs a function
 * call. What a span may carry is named in tracing/private-spans.ts: record types and counts, never
 * what a caller asked for or what a record holds.
 */
import { type Attributes, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { version } from '../version.ts';

const tracer = trace.getTracer('lev-api', version);

/** Runs `work` inside a span named `name`; the span ends when it settles, marked as an error if it throws. */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>): Promise<T> {
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
