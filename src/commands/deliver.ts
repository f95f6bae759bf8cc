/**
 * `lev-api deliver`: webhook delivery workers, as many processes on as many machines as wanted,
 * sharing the subscriptions through the database's leases until SIGTERM or SIGINT.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry, collectDefaultMetrics } from 'prom-client';
import type { Command } from './command.ts';
import { loadConfig } from '../config/index.ts';
import { UsageError } from '../errors.ts';
import { openPostgresBackend } from '../backend/postgres.ts';
import { startConfiguredDelivery } from '../webhooks/start.ts';
import { parseArguments } from './arguments.ts';

/** One JSON line a message, as the server's logs are; details name subscriptions and positions, never a body. */
const line = (level: string) => (details: object, message: string) =>
  console.log(JSON.stringify({ level, time: new Date().toISOString(), ...details, msg: message }));

export const deliverCommand: Command = {
  summary: "Deliver the change feed's events to webhook subscriptions (workers sharing the work through DATABASE_URL)",
  usage: () =>
    `DATABASE_URL=postgres://... lev-api deliver [--slots N] [--metrics-port PORT]

  Runs until SIGTERM or SIGINT. Settings: WEBHOOK_TIMEOUT_S, WEBHOOK_RETRY_HOURS, WEBHOOK_LEASE_S,
  WEBHOOK_TURN_S, WEBHOOK_SLOW_SHARE, WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOWED_NETWORKS, WEBHOOK_CA_FILE (see ` +
    `'lev-api serve --help').
  --slots         subscriptions delivered at once by this process (1 to 256, default 8)
  --metrics-port  serve Prometheus metrics (per subscription: delivered, failed, retrying, dead-lettered,
                  oldest undelivered, latency) at http://0.0.0.0:PORT/metrics`,
  async run(args, env, descriptions) {
    const { values } = parseArguments(args, { slots: { type: 'string' }, 'metrics-port': { type: 'string' } });
    const slotsText = (values as { slots?: string }).slots;
    const portText = (values as { 'metrics-port'?: string })['metrics-port'];
    if (portText !== undefined && !(/^[0-9]{1,5}$/.test(portText) && Number(portText) <= 65535)) {
      throw new UsageError(`--metrics-port must be a TCP port (0 to 65535), not ${JSON.stringify(portText)}`);
    }
    if (
      slotsText !== undefined &&
      !(/^[0-9]{1,3}$/.test(slotsText) && Number(slotsText) >= 1 && Number(slotsText) <= 256)
    ) {
      throw new UsageError(`--slots must be a whole number from 1 to 256, not ${JSON.stringify(slotsText)}`);
    }
    const config = loadConfig(env, { serving: false });
    if (!config.database)
      throw new UsageError(
        "DATABASE_URL is not set: delivery state is kept in the server's database (the mock delivers in its own " +
          'process, EVENTS_DELIVERY=on)',
      );
    const backend = openPostgresBackend(config.database, descriptions, { checkpoints: config.auditCheckpoints });
    try {
      await backend.records.ready();
    } catch (error) {
      await backend.close();
      throw error;
    }
    const log = { info: line('info'), warn: line('warn') };
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const delivery = startConfiguredDelivery(
      config.events.webhooks,
      backend,
      descriptions,
      log,
      registry,
      slotsText ? { slots: Number(slotsText) } : {},
    );
    let metrics: Server | undefined;
    if (portText !== undefined) {
      metrics = createServer(async (request, response) => {
        if (request.method !== 'GET' || request.url !== '/metrics') return void response.writeHead(404).end();
        response.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics());
      });
      await new Promise<void>((resolve, reject) =>
        metrics!.once('error', reject).listen(Number(portText), config.host, resolve),
      );
    }
    log.info(
      { worker: delivery.owner, ...(metrics ? { metricsPort: (metrics.address() as AddressInfo).port } : {}) },
      'delivering webhooks',
    );
    return new Promise<number>((resolve) => {
      const stop = async () => {
        await delivery.stop();
        metrics?.close();
        await backend.close();
        resolve(0);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
  },
};
