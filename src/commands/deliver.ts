/**
 * `lev-api deliver`: webhook delivery workers, as many processes on as many machines as wanted,
 * sharing the subscriptions through the database's leases until SIGTERM or SIGINT.
 */
import type { Command } from '../types/command.ts';
import { loadConfig } from '../config.ts';
import { UsageError } from '../errors.ts';
import { openPostgresBackend } from '../backend/postgres.ts';
import { records } from '../records/index.ts';
import { startConfiguredDelivery } from '../webhooks/start.ts';
import { parseArguments } from './arguments.ts';

/** One JSON line a message, as the server's logs are; details name subscriptions and positions, never a body. */
const line = (level: string) => (details: object, message: string) =>
  console.log(JSON.stringify({ level, time: new Date().toISOString(), ...details, msg: message }));

export const deliverCommand: Command = {
  summary: "Deliver the change feed's events to webhook subscriptions (workers sharing the work through DATABASE_URL)",
  usage: `DATABASE_URL=postgres://... lev-api deliver [--slots N]

  Runs until SIGTERM or SIGINT. Settings: WEBHOOK_TIMEOUT_S, WEBHOOK_RETRY_HOURS, WEBHOOK_LEASE_S,
  WEBHOOK_ALLOW_HTTP, WEBHOOK_ALLOWED_NETWORKS, WEBHOOK_CA_FILE (see 'lev-api serve --help').
  --slots   subscriptions delivered at once by this process (1 to 256, default 8)`,
  async run(args, env) {
    const { values } = parseArguments(args, { slots: { type: 'string' } });
    const slotsText = (values as { slots?: string }).slots;
    if (slotsText !== undefined && !(/^[0-9]{1,3}$/.test(slotsText) && Number(slotsText) >= 1 && Number(slotsText) <= 256)) {
      throw new UsageError(`--slots must be a whole number from 1 to 256, not ${JSON.stringify(slotsText)}`);
    }
    const config = loadConfig(env, { serving: false });
    if (!config.database) throw new UsageError('DATABASE_URL is not set: delivery state is kept in the server\'s database (the mock delivers in its own process, EVENTS_DELIVERY=on)');
    const backend = openPostgresBackend(config.database, records, config.auditCheckpoints);
    try {
      await backend.records.ready();
    } catch (error) {
      await backend.close();
      throw error;
    }
    const log = { info: line('info'), warn: line('warn') };
    const delivery = startConfiguredDelivery(config.events.webhooks, backend, log, undefined, slotsText ? { slots: Number(slotsText) } : {});
    log.info({ worker: delivery.owner }, 'delivering webhooks');
    return new Promise<number>((resolve) => {
      const stop = async () => {
        await delivery.stop();
        await backend.close();
        resolve(0);
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
  },
};
