/**
 * `lev-api subscriptions`: the operator's record of who receives which change-feed events (the
 * on-boarding agreement, in data), kept in DATABASE_URL.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from './command.ts';
import { loadConfig } from '../config/index.ts';
import { eventTypes, subscriptionProblem } from '../records/changes.ts';
import { INSTANT_RANGE, isoInstant, isoInstantShaped } from '../records/dates.ts';
import type { RecordDescription } from '../records/define.ts';
import { roleVocabulary, rolesProblem } from '../records/roles.ts';
import { assertSchemaCurrent } from '../store/migrations.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { createPostgresEvents } from '../store/postgres-events.ts';
import { SubscriptionExists, type ListedSubscription } from '../model/events.ts';
import type { DeadLetterRange, ListedEndpoint } from '../model/webhooks.ts';
import { createPostgresWebhooks } from '../store/postgres-webhooks.ts';
import { type DestinationChecker, RefusedDestination, destinationPolicy } from '../webhooks/destination.ts';
import { newSecret, newSigningKey, publicKeyOf } from '../webhooks/signing.ts';
import { deliveryStateOf } from '../webhooks/state.ts';
import { normalisedWebhookUrl } from '../webhook-addresses.ts';
import { parseArguments } from './arguments.ts';
import { UsageError } from '../errors.ts';

const ACTIONS = [
  'add',
  'list',
  'pause',
  'resume',
  'remove',
  'update',
  'rotate-secret',
  'dead-letters',
  'redeliver',
] as const;
type Action = (typeof ACTIONS)[number];

const usage = (records: readonly RecordDescription[]) =>
  `DATABASE_URL=postgres://... lev-api subscriptions add --client ID --events TYPE,... [--fields PATH,...] ` +
  `[--roles ROLE,...]
                [--webhook https://... [--ed25519] [--client-cert FILE --client-key FILE]]
       lev-api subscriptions update --client ID (--webhook https://... [--client-cert FILE --client-key FILE] | ` +
  `--roles ROLE,...)
       lev-api subscriptions list
       lev-api subscriptions pause|resume|remove --client ID
       lev-api subscriptions rotate-secret --client ID [--grace 24h]
       lev-api subscriptions dead-letters ID
       lev-api subscriptions redeliver --client ID (--event POSITION | --all | --from TIME [--to TIME])

  add       subscribe a client (its client id, as its token or identity headers name it) to event types
            (${eventTypes(records).join(', ')}); --fields names dot paths of the record
            (e.g. deceased.dateOfDeath) to include in each event, shown only as far as the client's roles allow
  list      every subscription, with its state, the position the client last read after, and its lag
  pause     deliver nothing to the client until resumed (its position is kept)
  resume    deliver again, from where the client left off
  remove    delete the client's subscription
  --webhook also POST each event to this https URL, signed (Standard Webhooks): the whsec_ secret is
            printed once; --ed25519 signs with a key pair too (v1a, public key printed); --client-cert
            and --client-key are PEM files presented to a receiver that asks for a client certificate
  --roles   the roles the client holds (${roleVocabulary(records).join(', ')}; or none), as its
            on-boarding agreement grants them: its webhook is then pushed only the types of datasets
            they read, with --fields rendered for them as a lookup by the client would be; without
            --roles, pushed events are thin (the feed itself always uses the caller's own roles)
  update    change the webhook URL or certificate (and deliver again after a 410 Gone disabled it),
            or the roles the client holds
  rotate-secret  a new whsec_ secret, printed once; the old one signs too for --grace (default 24h, at most 30d)
  dead-letters   the events delivery gave up on, oldest first
  redeliver queue dead letters for another attempt: one (--event), all (--all), or failed in a time range`;

/** A client id as identities carry it: printable, no spaces. */
const CLIENT = /^[\x21-\x7e]{1,200}$/;

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);

function clientOption(value: string | undefined): string {
  if (value === undefined) throw new UsageError('--client is required');
  if (!CLIENT.test(value))
    throw new UsageError(
      `--client must be a client id of 1 to 200 printable characters without spaces, not ${JSON.stringify(value)}`,
    );
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

const GRACE = /^([0-9]{1,6})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_GRACE_MS = 30 * 86_400_000;

function graceOption(value: string | undefined): number {
  if (value === undefined) return 86_400_000;
  const match = GRACE.exec(value);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : NaN;
  if (!match || ms > MAX_GRACE_MS)
    throw new UsageError(
      `--grace must be a duration such as 24h, 90m or 7d, at most 30d, not ${JSON.stringify(value)}`,
    );
  return ms;
}

function timeOption(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const time = isoInstant(value);
  if (time) return time;
  if (isoInstantShaped(value))
    throw new UsageError(
      `--${name} ${value} is written right but is no real date or time of the calendar ${INSTANT_RANGE}`,
    );
  throw new UsageError(
    `--${name} must be an ISO 8601 date or time (e.g. 2026-11-24 or 2026-11-24T09:00:00Z), ` +
      `not ${JSON.stringify(value)}`,
  );
}

/** The certificate and key files a receiver may ask for, read and checked now rather than at the first delivery. */
function certificateOptions(cert: string | undefined, key: string | undefined): { tlsCert?: string; tlsKey?: string } {
  if ((cert === undefined) !== (key === undefined)) throw new UsageError('--client-cert and --client-key go together');
  if (cert === undefined || key === undefined) return {};
  try {
    const certificate = new X509Certificate(readFileSync(cert));
    if (!certificate.checkPrivateKey(createPrivateKey(readFileSync(key))))
      throw new Error("the key is not the certificate's");
  } catch (error) {
    throw new UsageError(
      `--client-cert/--client-key: not a PEM certificate and its unencrypted key (${(error as Error).message})`,
    );
  }
  return { tlsCert: resolve(cert), tlsKey: resolve(key) };
}

async function webhookOption(url: string, checker: DestinationChecker): Promise<string> {
  const problem = checker.urlProblem(url);
  if (problem) throw new UsageError(`--webhook: ${problem}`);
  try {
    await checker.destination(url).resolve();
  } catch (error) {
    if (error instanceof RefusedDestination) throw new UsageError(`--webhook: ${error.message}`);
    throw new UsageError(
      `--webhook: ${new URL(url).hostname} does not resolve ` +
        `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  // Stored, printed and listed as the parser reads it (a host in lower case, a default port dropped):
  // what delivery connects to and the API shows.
  return normalisedWebhookUrl(url);
}

function webhookState(w: ListedEndpoint): string {
  const state = deliveryStateOf(w);
  if (state === 'disabled') return `disabled at ${w.disabledAt}: ${w.disabledReason}`;
  if (state === 'retrying') return `retrying (${w.attempts} failed, next at ${w.nextAttemptAt}: ${w.lastError})`;
  return state;
}

function webhookRow(w: ListedEndpoint): string {
  return [
    w.client,
    w.url,
    webhookState(w),
    String(w.deliveredThrough),
    String(w.lag),
    w.oldestUndeliveredAt ?? '-',
    String(w.deadLetters),
  ].join('\t');
}

export const subscriptionsCommand: Command = {
  summary:
    'Manage who receives which change-feed events, and their webhooks (add, update, list, pause, resume, remove, ' +
    'rotate-secret, dead-letters, redeliver)',
  usage,
  async run(args, env, records) {
    const [action, ...rest] = args;
    if (!(ACTIONS as readonly string[]).includes(action)) {
      throw new UsageError(
        action === undefined
          ? `name what to do: ${ACTIONS.join(', ')}`
          : `expected one of ${ACTIONS.join(', ')}, not '${action}'`,
      );
    }
    const text = { type: 'string' } as const;
    const flag = { type: 'boolean' } as const;
    const OPTIONS: Record<Action, Record<string, typeof text | typeof flag>> = {
      add: {
        client: text,
        events: text,
        fields: text,
        roles: text,
        webhook: text,
        ed25519: flag,
        'client-cert': text,
        'client-key': text,
      },
      update: { client: text, webhook: text, roles: text, 'client-cert': text, 'client-key': text },
      list: {},
      pause: { client: text },
      resume: { client: text },
      remove: { client: text },
      'rotate-secret': { client: text, grace: text },
      'dead-letters': { client: text },
      redeliver: { client: text, event: text, all: flag, from: text, to: text },
    };
    const { values, positionals } = parseArguments(rest, OPTIONS[action as Action], {
      positionals: action === 'dead-letters',
    });
    const given = values as {
      client?: string;
      events?: string;
      fields?: string;
      roles?: string;
      webhook?: string;
      ed25519?: boolean;
      'client-cert'?: string;
      'client-key'?: string;
      grace?: string;
      event?: string;
      all?: boolean;
      from?: string;
      to?: string;
    };
    if (positionals.length > 1 || (positionals.length && given.client !== undefined))
      throw new UsageError('name the client once');
    const client = action === 'list' ? '' : clientOption(given.client ?? positionals[0]);
    const events = list(given.events);
    const fields = list(given.fields);
    if (action === 'add') {
      if (given.events === undefined) throw new UsageError(`--events is required (${eventTypes(records).join(', ')})`);
      const problem = subscriptionProblem(records, events, fields);
      if (problem) throw new UsageError(`--events/--fields: ${problem}`);
      if (given.webhook === undefined && (given.ed25519 || given['client-cert'] || given['client-key']))
        throw new UsageError('--ed25519, --client-cert and --client-key need --webhook');
    }
    if (action === 'update' && given.webhook === undefined && given.roles === undefined) {
      throw new UsageError(
        '--webhook is required (the URL to deliver to; give the same one to keep it), or --roles to change only ' +
          'the roles',
      );
    }
    if (action === 'update' && given.webhook === undefined && (given['client-cert'] || given['client-key']))
      throw new UsageError('--client-cert and --client-key need --webhook');
    const roles =
      given.roles === undefined ? undefined : given.roles.trim() === 'none' ? [] : [...new Set(list(given.roles))];
    if (roles && given.roles!.trim() !== 'none') {
      const problem = rolesProblem(records, roles);
      if (problem) throw new UsageError(`--roles: ${problem}`);
    }
    const grace = action === 'rotate-secret' ? graceOption(given.grace) : 0;
    const certificate = certificateOptions(given['client-cert'], given['client-key']);
    let range: DeadLetterRange = {};
    if (action === 'redeliver') {
      const from = timeOption('from', given.from);
      const to = timeOption('to', given.to);
      const ways = [given.event !== undefined, Boolean(given.all), from !== undefined || to !== undefined].filter(
        Boolean,
      ).length;
      if (ways !== 1)
        throw new UsageError('say which dead letters: --event POSITION, --all, or --from TIME [--to TIME]');
      if (given.event !== undefined && !/^[0-9]{1,15}$/.test(given.event))
        throw new UsageError(`--event must be an event's position (digits), not ${JSON.stringify(given.event)}`);
      if (to && !from) throw new UsageError('--to needs --from');
      if (from && to && to <= from) throw new UsageError('--to must be after --from');
      range = {
        ...(given.event !== undefined ? { position: Number(given.event) } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
      };
    }

    const config = loadConfig(env, { serving: false });
    if (!config.database)
      throw new UsageError(
        "DATABASE_URL is not set: subscriptions are kept in the server's database (the mock subscribes every " +
          'caller to everything)',
      );
    const { webhooks: settings } = config.events;
    const checker = destinationPolicy({
      allowHttpLoopback: settings.allowHttpLoopback,
      allowedNetworks: settings.allowedNetworks,
    });
    const webhook = given.webhook === undefined ? undefined : await webhookOption(given.webhook, checker);
    const driver = openPostgres({ ...config.database, poolSize: 1 });
    try {
      await assertSchemaCurrent(driver, records);
      const { subscriptions } = createPostgresEvents(
        driver,
        records.map((d) => d.name),
      );
      const webhooks = createPostgresWebhooks(driver);
      const hasNone = () => new UsageError(`client ${client} has no subscription`);
      const hasNoWebhook = () =>
        new UsageError(
          `client ${client} has no webhook (add one with 'subscriptions update --client ${client} --webhook URL')`,
        );
      switch (action as Action) {
        case 'add': {
          const secret = newSecret();
          const signingKey = given.ed25519 ? newSigningKey() : undefined;
          try {
            await driver.transaction(async (tx) => {
              await createPostgresEvents(tx as typeof driver, []).subscriptions.add({
                client,
                events: [...new Set(events)],
                fields: [...new Set(fields)],
                ...(roles ? { roles } : {}),
              });
              if (webhook)
                await createPostgresWebhooks(tx as typeof driver).setEndpoint(
                  client,
                  { url: webhook, ...certificate },
                  { secret, ...(signingKey ? { signingKey } : {}) },
                );
            });
          } catch (error) {
            if (error instanceof SubscriptionExists) throw new UsageError(error.message);
            throw error;
          }
          console.log(
            `subscribed ${client} to ${events.join(', ')}${
              fields.length ? ` ` + `with ${fields.join(', ')}` : ''
            }${roles ? `; roles held: ${roles.join(', ') || 'none'}` : ''}`,
          );
          if (webhook) {
            console.log(`webhook ${webhook}: secret ${secret} (shown this once: give it to the receiver)`);
            if (signingKey) console.log(`Ed25519 public key ${publicKeyOf(signingKey)} (v1a signatures)`);
          }
          return 0;
        }
        case 'update': {
          if (!(await subscriptions.get(client))) throw hasNone();
          if (roles) {
            await subscriptions.setRoles(client, roles);
            console.log(`roles held by ${client}: ${roles.join(', ') || 'none'}`);
            if (webhook === undefined) return 0;
          }
          if (await webhooks.updateEndpoint(client, { url: webhook!, ...certificate })) {
            console.log(`webhook of ${client} is ${webhook}; delivering`);
            return 0;
          }
          const secret = newSecret();
          await webhooks.setEndpoint(client, { url: webhook!, ...certificate }, { secret });
          console.log(`webhook ${webhook} for ${client}: secret ${secret} (shown this once: give it to the receiver)`);
          return 0;
        }
        case 'list': {
          const all = await subscriptions.list();
          console.log(['client', 'state', 'events', 'fields', 'acknowledged', 'lag'].join('\t'));
          for (const subscription of all) console.log(row(subscription));
          const withRoles = all.filter((subscription) => subscription.roles);
          if (withRoles.length) {
            console.log('');
            console.log(['client', 'roles held (for pushed events)'].join('\t'));
            for (const subscription of withRoles)
              console.log([subscription.client, subscription.roles!.join(',') || 'none'].join('\t'));
          }
          const endpoints = await webhooks.list();
          if (endpoints.length) {
            console.log('');
            console.log(
              ['client', 'webhook', 'state', 'delivered through', 'lag', 'oldest undelivered', 'dead letters'].join(
                '\t',
              ),
            );
            for (const endpoint of endpoints) console.log(webhookRow(endpoint));
          }
          return 0;
        }
        case 'pause':
        case 'resume':
          if (!(await subscriptions.setPaused(client, action === 'pause'))) throw hasNone();
          console.log(`${action === 'pause' ? 'paused' : 'resumed'} ${client}`);
          return 0;
        case 'remove':
          if (!(await subscriptions.remove(client))) throw hasNone();
          console.log(`removed ${client}`);
          return 0;
        case 'rotate-secret': {
          const secret = newSecret();
          if (!(await webhooks.rotate(client, secret, grace))) throw hasNoWebhook();
          console.log(
            `new secret for ${client}: ${secret} (shown this once); the previous one signs too ` +
              `until ${new Date(Date.now() + grace).toISOString()}`,
          );
          return 0;
        }
        case 'dead-letters': {
          if (!(await webhooks.get(client))) throw hasNoWebhook();
          console.log(['event', 'failed at', 'attempts', 'status', 'error', 'queued'].join('\t'));
          for (const letter of await webhooks.deadLetters(client, 100_000)) {
            console.log(
              [
                letter.position,
                letter.failedAt,
                letter.attempts,
                letter.lastStatus ?? '-',
                letter.lastError ?? '-',
                letter.redeliver ? 'yes' : 'no',
              ].join('\t'),
            );
          }
          return 0;
        }
        case 'redeliver': {
          if (!(await webhooks.get(client))) throw hasNoWebhook();
          const count = await webhooks.redeliver(client, range);
          if (count === 0 && range.position !== undefined)
            throw new UsageError(`event ${range.position} is not among ${client}'s dead letters`);
          console.log(`queued ${count} dead letter(s) of ${client} for redelivery`);
          return 0;
        }
      }
    } finally {
      await driver.close();
    }
  },
};
