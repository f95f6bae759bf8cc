/**
 * A client's own webhook, as it may see it: GET /v1/events/webhook (where its events are pushed,
 * the state of delivery, and the Ed25519 public key its `v1a` signatures verify with, published
 * here), and GET /v1/events/dead-letters (the events delivery gave up on, oldest first, so a
 * receiver can see what it missed and fetch those registrations; an operator queues them again
 * with `lev-api subscriptions redeliver`). Ids, times and states only: never a secret.
 */
import type { FastifyInstance } from 'fastify';
import type { Identity } from '../types/identity.ts';
import type { WebhookStore } from '../types/webhooks.ts';
import { notFound, unavailableUnless } from '../errors.ts';
import { publicKeyOf } from '../webhooks/signing.ts';
import { DELIVERY_STATES, deliveryStateOf } from '../webhooks/state.ts';

export const DEAD_LETTERS_PATH = '/v1/events/dead-letters';
export const WEBHOOK_PATH = '/v1/events/webhook';
const LIMIT = 1000;

export const deadLettersResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['deadLetters'],
  properties: {
    deadLetters: {
      type: 'array',
      description: `Oldest first, at most ${LIMIT}; empty when the client has no webhook or missed nothing`,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'failedAt', 'attempts', 'queued'],
        properties: {
          id: { type: 'string', description: "The event's id in the feed (as GET /v1/events gives it, and its webhook-id's number)" },
          failedAt: { type: 'string', format: 'date-time', description: 'When its last attempt failed' },
          attempts: { type: 'integer' },
          status: { type: 'integer', description: "The receiver's last HTTP status, where it answered" },
          error: { type: 'string', description: 'Why the last attempt failed (never the body of the answer)' },
          queued: { type: 'boolean', description: 'Queued for another attempt by an operator' },
        },
      },
    },
  },
} as const;

export const webhookResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'state', 'deliveredThrough', 'deadLetters'],
  properties: {
    url: { type: 'string', description: 'Where the events are POSTed' },
    state: { type: 'string', enum: DELIVERY_STATES, description: 'disabled: the receiver answered 410 Gone; an operator enables it again' },
    deliveredThrough: { type: 'string', description: 'Every event up to this id was taken or dead-lettered' },
    nextAttemptAt: { type: 'string', format: 'date-time', description: 'While retrying: when the event after deliveredThrough is tried again' },
    lastStatus: { type: 'integer', description: "While retrying: the receiver's last HTTP status" },
    lastError: { type: 'string', description: 'While retrying: why the last attempt failed' },
    deadLetters: { type: 'integer', description: 'Events in the dead letters (GET /v1/events/dead-letters)' },
    publicKey: { type: 'string', description: "Where the subscription signs with Ed25519 too: the key its v1a signatures verify with (whpk_ + base64 of the 32 bytes)" },
  },
} as const;

const fromStore = unavailableUnless('Webhook delivery state is unavailable; try again shortly');

export async function webhookRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhookStore }) {
  app.get(WEBHOOK_PATH, { schema: { response: { 200: webhookResponse }, tags: ['events'] }, config: { requiresIdentity: true } }, async (request) => {
    const { client } = request.identity as Identity;
    const endpoint = (await fromStore(() => webhooks.list())).find((listed) => listed.client === client);
    if (!endpoint) throw notFound(`The client ${client} has no webhook: an operator adds one ('lev-api subscriptions update --webhook')`);
    const state = deliveryStateOf(endpoint);
    return {
      url: endpoint.url,
      state,
      deliveredThrough: String(endpoint.deliveredThrough),
      ...(state === 'retrying'
        ? { ...(endpoint.nextAttemptAt ? { nextAttemptAt: endpoint.nextAttemptAt } : {}), ...(endpoint.lastStatus !== undefined ? { lastStatus: endpoint.lastStatus } : {}), ...(endpoint.lastError ? { lastError: endpoint.lastError } : {}) }
        : {}),
      deadLetters: endpoint.deadLetters,
      ...(endpoint.signingKey ? { publicKey: publicKeyOf(endpoint.signingKey) } : {}),
    };
  });

  app.get(
    DEAD_LETTERS_PATH,
    { schema: { response: { 200: deadLettersResponse }, tags: ['events'] }, config: { requiresIdentity: true } },
    async (request) => {
      const { client } = request.identity as Identity;
      const letters = await fromStore(() => webhooks.deadLetters(client, LIMIT));
      return {
        deadLetters: letters.map((letter) => ({
          id: String(letter.position),
          failedAt: letter.failedAt,
          attempts: letter.attempts,
          ...(letter.lastStatus !== undefined ? { status: letter.lastStatus } : {}),
          ...(letter.lastError !== undefined ? { error: letter.lastError } : {}),
          queued: letter.redeliver,
        })),
      };
    },
  );
}
