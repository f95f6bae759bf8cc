/**
 * Prometheus metrics, in a registry of the app's own (several apps can live
 * in one process, as in tests). Labels are bounded: dataset, operation and
 * status class come from route configuration, never from request values.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import '../route-config.ts';
import { operationsRoute } from '../documentation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The registry /metrics serves. */
    metricsRegistry: Registry;
  }
}

// Not encapsulated (fastify-plugin): its onResponse hook must see the routes registered beside it, not only /metrics.
export const metricsPlugin = fp(
  async function metrics(app: FastifyInstance) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const duration = new Histogram({
      name: 'lev_request_duration_seconds',
      help: 'Time to answer a record request, by dataset, operation and HTTP status',
      labelNames: ['dataset', 'operation', 'status'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });

    // A callback rather than an async function: no promise a request.
    app.addHook('onResponse', (request, reply, done) => {
      const config = request.routeOptions.config;
      const dataset = config.dataset ?? config.verifies;
      if (dataset && config.operation) {
        duration.observe(
          { dataset, operation: config.operation, status: String(reply.statusCode) },
          reply.elapsedTime / 1000,
        );
      }
      done();
    });

    // For the plugins registered after it (verification's counters).
    app.decorate('metricsRegistry', registry);

    app.get('/metrics', { schema: operationsRoute('Prometheus metrics, text format') }, async (_request, reply) => {
      reply.type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'lev-metrics' },
);
