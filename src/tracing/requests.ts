/**
 * A span for each request a Fastify app serves, named by its route and continuing an incoming
 * traceparent, from Fastify's own instrumentation (@fastify/otel). Registered only when tracing is
 * on, when the SDK has been started (start.ts); otherwise not even loaded, so its hooks cost nothing.
 */
import type { FastifyInstance } from 'fastify';
import type { TracingConfig } from '../config/tracing.ts';

export async function traceRequests(app: FastifyInstance, tracing: TracingConfig | undefined): Promise<void> {
  if (!tracing) return;
  const { FastifyOtelInstrumentation } = await import('@fastify/otel');
  await app.register(new FastifyOtelInstrumentation().plugin());
}
