/**
 * Runs the service: configuration from the environment, the store, the app,
 * and a graceful stop on SIGTERM/SIGINT (finish in-flight requests, close the store).
 */
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { type Config, loadConfig } from './config/index.ts';
import { reportError } from './errors.ts';
import { type ServiceTypes, loadBuiltInTypes, openBackend } from './backend/open.ts';
import { startConfiguredDelivery, subscribeMockWebhooks } from './webhooks/start.ts';

/** Serves `types` (by default the built-in ones, read here once) over the configured backend. */
export async function serve(config: Config, types?: ServiceTypes) {
  const served = types ?? (await loadBuiltInTypes());
  const { descriptions } = served;
  const backend = await openBackend(config, served);
  const app = await buildApp(config, { backend, descriptions });
  app.addHook('onClose', () => backend.close());
  const { webhooks } = config.events;
  for (const { client, url, secret } of await subscribeMockWebhooks(backend, descriptions, webhooks.mockUrls)) {
    // Printed, not logged: shown once, for the client team to verify with.
    console.log(`MOCK_WEBHOOKS: ${url} receives every event as subscription ${client}, signed with ${secret}`);
  }
  if (webhooks.delivery) {
    const delivery = startConfiguredDelivery(webhooks, backend, descriptions, app.log, app.metricsRegistry);
    // Before the store closes (onClose).
    app.addHook('preClose', () => delivery.stop());
  }
  const { auth } = config;
  app.log.info(
    {
      authMode: auth?.mode,
      ...(auth?.mode === 'oidc'
        ? { issuer: auth.issuer, audience: auth.audience, requireBoundTokens: auth.requireBoundTokens }
        : {}),
      tls: config.tls ? (config.tls.clientCa ? 'client certificates required' : 'on') : 'off',
      rateLimit: config.rateLimit
        ? {
            perMinute: config.rateLimit.perMinute,
            burst: config.rateLimit.burst,
            buckets: config.rateLimit.redis ? 'redis' : 'process',
          }
        : 'off',
    },
    'authentication',
  );
  for (const { details, message } of backend.warnings()) app.log.warn(details, message);
  if (auth?.mode === 'mock' && config.database) {
    app.log.warn(
      'AUTH_MODE=mock with DATABASE_URL: identity headers are believed from any caller, and every dataset is open',
    );
  }
  let grace: ReturnType<typeof closeWithGrace> | undefined;
  // Closed otherwise (by its caller, in-process), the process is no longer this server's to end.
  app.addHook('onClose', () => grace?.uninstall());
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Not started (the port is taken, say): the store is closed and the failure is the caller's to report.
    await app.close();
    throw error;
  }
  // Only once listening: close-with-grace also ends the process with 0 on 'beforeExit', which would
  // hide a failure to start as success.
  grace = closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err: { type: (err as Error).name } }, 'stopping after an error');
    await app.close();
  });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await serve(loadConfig(process.env));
  } catch (error) {
    // Told as `lev-api serve` tells it, with the same exit code.
    const { line, exitCode } = reportError('serve', error);
    console.error(line);
    process.exit(exitCode);
  }
}
