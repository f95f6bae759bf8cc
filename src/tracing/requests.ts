/**
 * A span for each request a Fastify app serves, named by its route and continuing an incoming
 * traceparent, from Fastify's own instrumentation (@fastify/otel). Registered only when tracing is
 * on, when the SDK has been started (start.ts); otherwise not even loaded, so its hooks cost nothing.
 *
 * The request's span alone: by default @fastify/otel also wraps every hook and the handler of every
 * request in a span of its own, eight or so a request, sampled or not, which cost more CPU than the
 * request they describe (docs/performance.md, "Tracing"). The parts an operator asks about are the
 * service's own spans (spans.ts: identify, store, audit, render) and the driver's queries.
 */
import type { FastifyInstance } from 'fastify';
import type { TracingConfig } from '../config/tracing.ts';

export async function traceRequests(app: FastifyInstance, tracing: TracingConfig | undefined): Promise<void> {
  if (!tracing) return;
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  await app.register(new FastifyOtelInstrumentation({ instrumentHooks: false, instrumentHandler: false }).plugin());
}
