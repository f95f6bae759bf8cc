/**
 * Starts OpenTelemetry when the configuration asks for traces, before the modules it instruments
 * are loaded: bin/lev-api.js calls it first and only then imports the commands. With tracing off
 * nothing of the SDK is even imported, and the service's spans (spans.ts) stay the API's no-ops.
 */
import { type TracingConfig, loadTracingConfig } from '../config/tracing.ts';

export interface Tracing {
  /** Sends the spans still held, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts tracing as `env` says; undefined when it is off. A bad setting starts nothing here: the
 * command's own configuration reads the same settings and reports them, with its exit code.
 */
export async function startTracing(env: Record<string, string | undefined>): Promise<Tracing | undefined> {
  let config: TracingConfig | undefined;
  try {
    config = loadTracingConfig(env);
  } catch {
    return undefined;
  }
  if (!config) return undefined;
  const { startSdk } = await import('./sdk.ts');
  return startSdk(config);
}
