/**
 * A span for each request a Fastify app serves that the sampler takes, named `request`, with its
 * route pattern, and continuing an incoming traceparent (spans.ts makes it). Added only when tracing
 * is on.
 *
 * Made here rather than by Fastify's instrumentation (@fastify/otel), which starts and enters a
 * span for every request before the sampler has answered: a request outside the sample paid for
 * its ids, a context and the async hook that follows it (docs/performance.md, "Tracing"). An API
 * request the sampler leaves out enters no context: its parts make no span (spans.ts), its
 * queries none (the pg instrumentation wants a parent), and its calls through undici none, nor a
 * traceparent (a webhook delivery carries its load's instead). The parts an operator asks about
 * are the service's own spans within it (identify, store, audit, render) and the driver's queries.
 */
import type { FastifyInstance } from 'fastify';
import type { TracingConfig } from '../config/tracing.ts';
import { requestSpan } from './spans.ts';

/**
 * `passOnUnsampled`: for the pages' process, whose requests call the API: a request outside the
 * sample enters a context too, so that its calls tell the API it is outside (spans.ts).
 */
export function traceRequests(
  app: FastifyInstance,
  tracing: TracingConfig | undefined,
  { passOnUnsampled = false } = {},
): void {
  if (!tracing) return;
  app.addHook('onRequest', (request, reply, done) => {
    const span = requestSpan(
      request.headers,
      {
        'http.request.method': request.method,
        // The query and the system numbers go on the way out (private-spans.ts).
        'url.path': request.url,
        ...(request.routeOptions.url === undefined ? {} : { 'http.route': request.routeOptions.url }),
      },
      passOnUnsampled,
    );
    if (!span) return done();
    // Ended when the response is done with, sent or not (the caller gone first): a listener of the
    // traced request's alone, where a Fastify hook would run for every request.
    reply.raw.once('close', () => span.ended(reply.raw.writableFinished ? reply.statusCode : undefined));
    // The hooks, the handler and what they start run within the span's context.
    span.within(done);
  });
}
