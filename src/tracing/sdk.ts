/**
 * The OpenTelemetry SDK as this service uses it, from its smaller packages rather than
 * @opentelemetry/sdk-node (which brings every exporter and the metrics and logs SDKs): a tracer
 * provider with the configured sampler, W3C trace context in and out, an OTLP/HTTP JSON exporter
 * behind the privacy allow-list (private-spans.ts), and the instrumentations of pg (the store's
 * queries) and undici (webhooks, the pages' calls to the API, OpenID Connect). The request spans
 * come from requests.ts, registered by buildApp (app.ts) when tracing is on.
 */
import { register } from 'node:module';
import * as api from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import type { TracingConfig } from '../config/tracing.ts';
import { version } from '../version.ts';
import { privateExporter } from './private-spans.ts';
import { traceSpans } from './spans.ts';
import type { Tracing } from './start.ts';

function samplerOf({ name, ratio }: TracingConfig['sampler']): Sampler {
  const root = name.endsWith('always_on')
    ? new AlwaysOnSampler()
    : name.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(ratio);
  return name.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}

export async function startSdk(config: TracingConfig): Promise<Tracing> {
  // pg is imported from ES modules, which only a loader hook sees; this one wraps only the
  // modules the instrumentations name, not every module the service loads.
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const provider = new TracerProvider({
    sampler: samplerOf(config.sampler),
    // Only these: the SDK's default resource would add the process's command line.
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': version }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: privateExporter(new OTLPTraceExporter({ url: config.url, headers: { ...config.headers } })),
      }),
    ],
  });
  api.context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  api.propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  api.trace.setGlobalTracerProvider(provider);
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      // A query's span names its operation and table; never its values (enhancedDatabaseReporting
      // off), and private-spans.ts drops the statement's text too.
      new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true, ignoreConnectSpans: true }),
      // Sends traceparent with every request made through undici within a trace (webhooks among
      // them). Outside one (a request the sampler left out) no span: it would begin a trace of its own.
      new UndiciInstrumentation({ requireParentforSpans: true }),
    ],
  });
  await waitForAllMessagesAcknowledged();
  traceSpans(api);
  return { shutdown: () => provider.shutdown() };
}
