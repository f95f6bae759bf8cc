import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../src/errors.ts';
import { loadConfig } from '../../src/config/index.ts';
import { loadTracingConfig } from '../../src/config/tracing.ts';
import { loadUiConfig } from '../../src/config/ui.ts';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' };

test('traces are off without an endpoint, or when the standard variables turn them off', () => {
  assert.equal(loadTracingConfig({}), undefined);
  assert.equal(loadTracingConfig({ OTEL_SERVICE_NAME: 'lev-api' }), undefined);
  assert.equal(loadTracingConfig({ ...ENDPOINT, OTEL_SDK_DISABLED: 'true' }), undefined);
  assert.equal(loadTracingConfig({ ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' }), undefined);
  assert.equal(loadConfig({}).tracing, undefined);
});

test('an endpoint turns them on: its /v1/traces, the service name, every trace kept by default', () => {
  assert.deepEqual(loadTracingConfig(ENDPOINT), {
    url: 'http://collector:4318/v1/traces',
    headers: {},
    serviceName: 'lev-api',
    sampler: { name: 'parentbased_always_on', ratio: 1 },
  });
  const tracing = loadTracingConfig({
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp/traces',
    OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db,x-team=lev',
    OTEL_SERVICE_NAME: 'lev-api-ui',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: '0.1',
  });
  assert.deepEqual(tracing, {
    url: 'https://collector.example/otlp/traces',
    headers: { 'api-key': 'a=b', 'x-team': 'lev' },
    serviceName: 'lev-api-ui',
    sampler: { name: 'parentbased_traceidratio', ratio: 0.1 },
  });
  assert.deepEqual(loadConfig(ENDPOINT).tracing, loadTracingConfig(ENDPOINT));
  assert.deepEqual(loadUiConfig({ ...ENDPOINT, UI_API_URL: 'http://api:8080' }).tracing, loadTracingConfig(ENDPOINT));
});

test('a bad tracing setting stops the process, named, as any other setting does', () => {
  for (const [key, value] of [
    ['OTEL_TRACES_SAMPLER', 'sometimes'],
    ['OTEL_TRACES_SAMPLER_ARG', '1.5'],
    ['OTEL_EXPORTER_OTLP_PROTOCOL', 'grpc'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
    ['OTEL_EXPORTER_OTLP_HEADERS', 'no-value'],
  ]) {
    const env = { ...ENDPOINT, [key]: value };
    assert.throws(
      () => loadTracingConfig(env),
      (error: Error) => error instanceof ConfigError && error.message.includes(`${key}=`),
      key,
    );
    assert.throws(
      () => loadConfig(env),
      (error: Error) => error instanceof ConfigError && error.message.includes(`${key}=`),
      key,
    );
  }
});
