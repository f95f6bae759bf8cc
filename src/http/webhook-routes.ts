/**
 * A client's own webhook, as it may see it: GET /v1/events/webhook (where its events are pushed,
 * the state of delivery, and the Ed25519 public key its `v1a` signatures verify with, published
 * here), and GET /v1/events/dead-letters (the events delivery gave up on, oldest first, so a
 * receiver can see what it missed and fetch those registrations; an operator queues them again
 * with `lev-api subscriptions redeliver`). Ids, times and states only: never a secret.
 */
import type { FastifyInstance } from 'fastify';
import type { Identity } from '../model/identity.ts';
import type { WebhookStore } from '../model/webhooks.ts';
import { notFound, unavailableUnless } from '../errors.ts';
import { publicKeyOf } from '../webhooks/signing.ts';
import { DELIVERY_STATES, deliveryStateOf } from '../webhooks/state.ts';
import { RECORD_ERRORS, UNREADABLE, answer, errorResponse } from './documentation.ts';

const DEAD_LETTERS_PATH = '/v1/events/dead-letters';
const WEBHOOK_PATH = '/v1/events/webhook';
const LIMIT = 1000;

const deadLettersResponse = {
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
          id: {
            type: 'string',
            description: "The event's id in the feed (as GET /v1/events gives it, and its webhook-id's number)",
          },
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

const webhookResponse = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'state', 'deliveredThrough', 'deadLetters'],
  properties: {
    url: { type: 'string', description: 'Where the events are POSTed' },
    state: {
      type: 'string',
      enum: DELIVERY_STATES,
      description: 'disabled: the receiver answered 410 Gone; an operator enables it again',
    },
    deliveredThrough: { type: 'string', description: 'Every event up to this id was taken or dead-lettered' },
    nextAttemptAt: {
      type: 'string',
      format: 'date-time',
      description: 'While retrying: when the event after deliveredThrough is tried again',
    },
    lastStatus: { type: 'integer', description: "While retrying: the receiver's last HTTP status" },
    lastError: { type: 'string', description: 'While retrying: why the last attempt failed' },
    deadLetters: { type: 'integer', description: 'Events in the dead letters (GET /v1/events/dead-letters)' },
    publicKey: {
      type: 'string',
      description:
        'Where the subscription signs with Ed25519 too: the key its v1a signatures verify with (whpk_ + ' +
        'base64 of the 32 bytes)',
    },
  },
} as const;

const webhooksUnavailable = unavailableUnless('Webhook delivery state is unavailable; try again shortly');

/** What both routes may answer besides their 200. */
const ERRORS = {
  400: UNREADABLE,
  401: RECORD_ERRORS[401],
  429: RECORD_ERRORS[429],
  503: errorResponse('Webhook delivery state is unavailable; retry later'),
} as const;

export async function webhookRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhookStore }) {
  const webhookSchema = {
    tags: ['events'],
    operationId: 'webhook',
    summary:
      "The calling client's webhook: where its events are pushed, the state of delivery, and the public " +
      'key of its v1a signatures',
    description:
      'Where an operator gave the subscription a webhook, the service POSTs each of its events there, ' +
      'signed as Standard Webhooks says (webhook-id, webhook-timestamp, webhook-signature). ' +
      'Never the whsec_ secret: it is shown once, to the operator. Where the subscription signs with ' +
      'Ed25519 too, publicKey is what its v1a signatures verify with.',
    response: {
      200: answer("The client's webhook", webhookResponse),
      ...ERRORS,
      404: errorResponse('The client has no webhook'),
    },
  };
  app.get(WEBHOOK_PATH, { schema: webhookSchema, config: { requiresIdentity: true } }, async (request) => {
    const { client } = request.identity as Identity;
    const endpoint = (await webhooksUnavailable(() => webhooks.list())).find((listed) => listed.client === client);
    if (!endpoint)
      throw notFound(
        `The client ${client} has no webhook: an operator adds one ('lev-api subscriptions update --webhook')`,
      );
    const state = deliveryStateOf(endpoint);
    return {
      url: endpoint.url,
      state,
      deliveredThrough: String(endpoint.deliveredThrough),
      ...(state === 'retrying'
        ? {
            ...(endpoint.nextAttemptAt ? { nextAttemptAt: endpoint.nextAttemptAt } : {}),
            ...(endpoint.lastStatus !== undefined ? { lastStatus: endpoint.lastStatus } : {}),
            ...(endpoint.lastError ? { lastError: endpoint.lastError } : {}),
          }
        : {}),
      deadLetters: endpoint.deadLetters,
      ...(endpoint.signingKey ? { publicKey: publicKeyOf(endpoint.signingKey) } : {}),
    };
  });

  app.get(
    DEAD_LETTERS_PATH,
    {
      schema: {
        tags: ['events'],
        operationId: 'deadLetters',
        summary: "The events webhook delivery gave up on for the calling client's webhook",
        description:
          "Where the client's subscription has a webhook: the events not taken after WEBHOOK_RETRY_HOURS " +
          'of retries, oldest first (at most 1000), with the last status and why it failed (never the ' +
          "receiver's answer). " +
          "Each is in the change feed under its id while kept; an operator queues them again with 'lev-api " +
          "subscriptions redeliver', and each is sent again with the same webhook-id.",
        response: {
          200: answer('The dead letters (an empty array when there are none)', deadLettersResponse),
          ...ERRORS,
        },
      },
      config: { requiresIdentity: true },
    },
    async (request) => {
      const { client } = request.identity as Identity;
      const letters = await webhooksUnavailable(() => webhooks.deadLetters(client, LIMIT));
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
