/**
 * A span for each request a Fastify app serves that the sampler takes, named `request`, with its
 * route pattern, and continuing an incoming traceparent. Added only when tracing is on; otherwise
 * not even loaded, so its hook costs nothing.
 *
 * Made here rather than by Fastify's instrumentation (@fastify/otel), which starts and enters a
 * span for every request before the sampler has answered: a request outside the sample paid for
 * its ids, a context and the async hook that follows it (docs/performance.md, "Tracing"). A
 * request the sampler leaves out enters no context: its parts make no span (spans.ts), its
 * queries none (the pg instrumentation wants a parent), and its calls through undici none, nor a
 * traceparent. The parts an operator asks about are the service's own spans within it (identify,
 * store, audit, render) and the driver's queries.
 */
import type { FastifyInstance } from 'fastify';
import type { TracingConfig } from '../config/tracing.ts';
import { version } from '../version.ts';

export async function traceRequests(app: FastifyInstance, tracing: TracingConfig | undefined): Promise<void> {
  if (!tracing) return;
  const { context, propagation, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode } = await import('@opentelemetry/api');
  const tracer = trace.getTracer('lev-api', version);

  app.addHook('onRequest', (request, reply, done) => {
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
    // Ended when the response is done with, sent or not: a listener of the sampled request's
    // alone, where a Fastify hook would run for every request.
    reply.raw.once('close', () => {
      // Sent: its status (the status alone: an error's message may quote what was asked).
      // Otherwise the caller went first, and there is none.
      if (reply.raw.writableFinished) {
        span.setAttribute('http.response.status_code', reply.statusCode);
        if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
    // The hooks, the handler and what they start run within the span's context.
    context.with(trace.setSpan(parent, span), done);
  });
}
