/**
 * A span for each request a Fastify app serves that the sampler takes, named `request`, with its
 * route pattern, and continuing an incoming traceparent. Added only when tracing is on; otherwise
 * not even loaded, so its hooks cost nothing.
 *
 * Made here rather than by Fastify's instrumentation (@fastify/otel), which starts and enters a
 * span for every request before the sampler has answered, and so made tracing at 10% sampling
 * cost nearly what it cost with nothing sampled (docs/performance.md, "Tracing"). A request the
 * sampler leaves out enters no context: its parts make no span (spans.ts), its queries none (the
 * pg instrumentation wants a parent), and its calls through undici none, nor a traceparent. The
 * parts an operator asks about are the service's own spans within it (identify, store, audit,
 * render) and the driver's queries.
 */
import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TracingConfig } from '../config/tracing.ts';
import { version } from '../version.ts';

export async function traceRequests(app: FastifyInstance, tracing: TracingConfig | undefined): Promise<void> {
  if (!tracing) return;
  const { context, propagation, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode } = await import('@opentelemetry/api');
  const tracer = trace.getTracer('lev-api', version);
  // Sampled requests alone are here, so the other nine in ten cost a miss.
  const spans = new WeakMap<FastifyRequest, Span>();

  app.addHook('onRequest', (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = tracer.startSpan(
      'request',
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          // The query and the system numbers go on the way out (private-spans.ts).
          'url.path': request.url,
          ...(request.routeOptions.url === undefined ? {} : { 'http.route': request.routeOptions.url }),
        },
      },
      parent,
    );
    if (!span.isRecording()) return done();
    spans.set(request, span);
    // The hooks, the handler and what they start run within the span's context.
    context.with(trace.setSpan(parent, span), done);
  });

  // Ends the span as the response is sent, or without a status when the caller has gone first.
  const end = (request: FastifyRequest, statusCode: number | undefined) => {
    const span = spans.get(request);
    if (!span) return;
    spans.delete(request);
    if (statusCode !== undefined) span.setAttribute('http.response.status_code', statusCode);
    // The status alone: an error's message may quote what was asked.
    if (statusCode !== undefined && statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  };
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => {
    end(request, undefined);
    done();
  });
}
