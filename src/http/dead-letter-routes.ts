/**
 * GET /v1/events/dead-letters: the events push delivery gave up on for the calling client's own
 * webhook, oldest first, so a receiver can see what it missed and fetch those registrations (an
 * operator queues them again with `lev-api subscriptions redeliver`). Ids and times only.
 */
import type { FastifyInstance } from 'fastify';
import type { Identity } from '../types/identity.ts';
import type { WebhookStore } from '../types/webhooks.ts';
import { unavailableUnless } from './errors.ts';

export const DEAD_LETTERS_PATH = '/v1/events/dead-letters';
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

const fromStore = unavailableUnless('Webhook delivery state is unavailable; try again shortly');

export async function deadLetterRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhookStore }) {
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
