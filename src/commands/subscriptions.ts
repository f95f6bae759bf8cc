/**
 * `lev-api subscriptions`: the operator's record of who receives which change-feed events (the
 * on-boarding agreement, in data), kept in DATABASE_URL.
 */
import type { Command } from '../types/command.ts';
import { loadConfig } from '../config.ts';
import { eventTypes, subscriptionProblem } from '../records/changes.ts';
import { records } from '../records/index.ts';
import { assertSchemaCurrent } from '../store/migrations.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { createPostgresEvents } from '../store/postgres-events.ts';
import { SubscriptionExists, type ListedSubscription } from '../types/events.ts';
import { parseArguments } from './arguments.ts';
import { UsageError } from '../errors.ts';

const ACTIONS = ['add', 'list', 'pause', 'resume', 'remove'] as const;
type Action = (typeof ACTIONS)[number];

const USAGE = `DATABASE_URL=postgres://... lev-api subscriptions add --client ID --events TYPE,... [--fields PATH,...]
       lev-api subscriptions list
       lev-api subscriptions pause|resume|remove --client ID

  add       subscribe a client (its client id, as its token or identity headers name it) to event types
            (${eventTypes(records).join(', ')}); --fields names dot paths of the record
            (e.g. deceased.dateOfDeath) to include in each event, shown only as far as the client's roles allow
  list      every subscription, with its state, the position the client last read after, and its lag
  pause     deliver nothing to the client until resumed (its position is kept)
  resume    deliver again, from where the client left off
  remove    delete the client's subscription`;

/** A client id as identities carry it: printable, no spaces. */
const CLIENT = /^[\x21-\x7e]{1,200}$/;

const list = (value: string | undefined) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);

function clientOption(value: string | undefined): string {
  if (value === undefined) throw new UsageError('--client is required');
  if (!CLIENT.test(value)) throw new UsageError(`--client must be a client id of 1 to 200 printable characters without spaces, not ${JSON.stringify(value)}`);
  return value;
}

function row(s: ListedSubscription): string {
  return [
    s.client,
    s.paused ? 'paused' : 'active',
    s.events.join(','),
    s.fields.length ? s.fields.join(',') : '-',
    s.acknowledged === undefined ? '-' : `${s.acknowledged} at ${s.acknowledgedAt}`,
    String(s.lag),
  ].join('\t');
}

export const subscriptionsCommand: Command = {
  summary: 'Manage who receives which change-feed events (add, list, pause, resume, remove)',
  usage: USAGE,
  async run(args, env) {
    const [action, ...rest] = args;
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw new UsageError(action === undefined ? `name what to do: ${ACTIONS.join(', ')}` : `expected one of ${ACTIONS.join(', ')}, not '${action}'`);
    }
    const text = { type: 'string' } as const;
    const options: Record<string, typeof text> = action === 'add' ? { client: text, events: text, fields: text } : action === 'list' ? {} : { client: text };
    const { values } = parseArguments(rest, options);
    const given = values as { client?: string; events?: string; fields?: string };
    const client = action === 'list' ? '' : clientOption(given.client);
    const events = list(given.events);
    const fields = list(given.fields);
    if (action === 'add') {
      if (given.events === undefined) throw new UsageError(`--events is required (${eventTypes(records).join(', ')})`);
      const problem = subscriptionProblem(records, events, fields);
      if (problem) throw new UsageError(`--events/--fields: ${problem}`);
    }

    const config = loadConfig(env, { serving: false });
    if (!config.database) throw new UsageError("DATABASE_URL is not set: subscriptions are kept in the server's database (the mock subscribes every caller to everything)");
    const driver = openPostgres({ ...config.database, poolSize: 1 });
    try {
      await assertSchemaCurrent(driver, records);
      const { subscriptions } = createPostgresEvents(driver, records.map((d) => d.name));
      switch (action as Action) {
        case 'add':
          try {
            await subscriptions.add({ client, events: [...new Set(events)], fields: [...new Set(fields)] });
          } catch (error) {
            if (error instanceof SubscriptionExists) throw new UsageError(error.message);
            throw error;
          }
          console.log(`subscribed ${client} to ${events.join(', ')}${fields.length ? ` with ${fields.join(', ')}` : ''}`);
          return 0;
        case 'list': {
          const all = await subscriptions.list();
          console.log(['client', 'state', 'events', 'fields', 'acknowledged', 'lag'].join('\t'));
          for (const subscription of all) console.log(row(subscription));
          return 0;
        }
        case 'pause':
        case 'resume':
          if (!(await subscriptions.setPaused(client, action === 'pause'))) throw new UsageError(`client ${client} has no subscription`);
          console.log(`${action === 'pause' ? 'paused' : 'resumed'} ${client}`);
          return 0;
        case 'remove':
          if (!(await subscriptions.remove(client))) throw new UsageError(`client ${client} has no subscription`);
          console.log(`removed ${client}`);
          return 0;
      }
    } finally {
      await driver.close();
    }
  },
};
