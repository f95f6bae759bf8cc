/**
 * Traces (OpenTelemetry), in the standard variables every OpenTelemetry SDK reads: on when an OTLP
 * endpoint is given, off (nothing of the SDK even loaded) without one. Read here and handed to the
 * SDK as values (tracing/sdk.ts), so that the SDK reads nothing of the environment itself. Every
 * process that serves or delivers reads them: the API, `deliver`, the pages' own process.
 */
import { Type } from '@sinclair/typebox';
import { ConfigError } from '../errors.ts';
import { readEnv, referenceOf } from './read-env.ts';
import type { Settled } from './shape.ts';

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

const TracingEnv = Type.Object({
  OTEL_SDK_DISABLED: Type.Union([Type.Literal('true'), Type.Literal('false')], {
    default: 'false',
    description: "'true' turns traces off whatever else is set",
  }),
  OTEL_TRACES_EXPORTER: Type.Union([Type.Literal('otlp'), Type.Literal('none')], {
    default: 'otlp',
    description: "'none' turns traces off; 'otlp' sends them to the OTLP endpoint",
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+$',
      description:
        'OTLP/HTTP collector (e.g. http://collector:4318): traces go to its /v1/traces in the JSON ' +
        'encoding; without it (or the next) no traces are made',
    }),
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: Type.Optional(
    Type.String({
      pattern: '^https?://[^\\s?#]+$',
      description: 'The full URL traces are sent to, in place of OTEL_EXPORTER_OTLP_ENDPOINT/v1/traces',
    }),
  ),
  OTEL_EXPORTER_OTLP_PROTOCOL: Type.Literal('http/json', {
    default: 'http/json',
    description: 'OTLP protocol: http/json only',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: Type.Optional(
    Type.String({
      pattern: '^[^=,\\s]+=[^,]*(,[^=,\\s]+=[^,]*)*$',
      description:
        'Headers sent with each export, key=value pairs separated by commas, percent-encoded (a ' +
        "collector's API key, say)",
    }),
  ),
  OTEL_SERVICE_NAME: Type.String({
    pattern: '^\\S+$',
    default: 'lev-api',
    description:
      "The service.name traces are sent under (give the pages' process and deliver names of their own, " +
      'e.g. lev-api-ui)',
  }),
  OTEL_TRACES_SAMPLER: Type.Union(
    SAMPLERS.map((name) => Type.Literal(name)),
    {
      default: 'parentbased_always_on',
      description:
        "Which requests are traced: parentbased_ follows an incoming traceparent's choice, the rest decide " +
        'alone; traceidratio keeps OTEL_TRACES_SAMPLER_ARG of them',
    },
  ),
  OTEL_TRACES_SAMPLER_ARG: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'The share of traces the traceidratio samplers keep (0 to 1); 1 when unset',
    }),
  ),
});

/** Where traces go and which are kept. */
export const TracingConfig = Type.Object({
  /** The OTLP/HTTP URL spans are POSTed to (JSON). */
  url: Type.String(),
  headers: Type.Record(Type.String(), Type.String()),
  serviceName: Type.String(),
  sampler: Type.Object({ name: Type.Union(SAMPLERS.map((name) => Type.Literal(name))), ratio: Type.Number() }),
});
export type TracingConfig = Settled<typeof TracingConfig>;

/** The tracing settings: undefined when traces are off, a problem for each bad one. */
export function tracingOf(env: Record<string, string | undefined>, problems: string[]): TracingConfig | undefined {
  const read = readEnv(TracingEnv, env);
  problems.push(...read.problems);
  if (read.problems.length) return undefined;
  const { value } = read;
  if (value.OTEL_SDK_DISABLED === 'true' || value.OTEL_TRACES_EXPORTER === 'none') return undefined;
  const url =
    value.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
    (value.OTEL_EXPORTER_OTLP_ENDPOINT && `${value.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`);
  if (!url) return undefined;
  const headers: Record<string, string> = {};
  for (const pair of value.OTEL_EXPORTER_OTLP_HEADERS?.split(',') ?? []) {
    const mark = pair.indexOf('=');
    try {
      headers[decodeURIComponent(pair.slice(0, mark).trim())] = decodeURIComponent(pair.slice(mark + 1).trim());
    } catch {
      problems.push(`OTEL_EXPORTER_OTLP_HEADERS: '${pair.slice(0, mark)}' has a malformed percent-escape`);
    }
  }
  return {
    url,
    headers,
    serviceName: value.OTEL_SERVICE_NAME,
    sampler: { name: value.OTEL_TRACES_SAMPLER, ratio: value.OTEL_TRACES_SAMPLER_ARG ?? 1 },
  };
}

/**
 * The tracing settings alone, for the SDK, which starts before any command loads the modules it
 * instruments (tracing/start.ts): undefined when off; a ConfigError naming every bad variable.
 */
export function loadTracingConfig(env: Record<string, string | undefined>): TracingConfig | undefined {
  const problems: string[] = [];
  const tracing = tracingOf(env, problems);
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return tracing;
}

/** The tracing settings, for docs/configuration.md and `--help`. */
export const tracingConfigReference = () => referenceOf(TracingEnv);
