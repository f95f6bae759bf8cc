/**
 * The subscriptions page's view of each subscription (GET /api/v0/subscriptions): where its events
 * go, its state as a GOV.UK tag, and its lag, failures and dead letters in words. Times are UTC.
 */
import type { SubscriptionState } from '@lev-api/client';
import { longDate } from './dates.ts';

interface SubscriptionView {
  readonly client: string;
  /** The webhook's URL, or that the client reads the feed. */
  readonly endpoint: string;
  readonly events: string;
  readonly state: { readonly text: string; readonly colour: 'green' | 'grey' | 'red'; readonly detail?: string };
  readonly lag: string;
  readonly failures: string;
  readonly deadLetters: string;
}

/** "24 November 2026 at 10:02:03 UTC". */
const whenUtc = (at: string) => `${longDate(at.slice(0, 10))} at ${at.slice(11, 19)} UTC`;

const events = (count: number) => `${count} ${count === 1 ? 'event' : 'events'}`;

const STATES = {
  active: { text: 'Active', colour: 'green' },
  paused: { text: 'Paused', colour: 'grey' },
  disabled: { text: 'Disabled', colour: 'red' },
} as const;

function lagOf(s: SubscriptionState): string {
  if (s.webhook === undefined) {
    const read = s.lastReadAt ? `last read on ${whenUtc(s.lastReadAt)}` : 'it has not read the feed yet';
    return s.lag ? `${events(s.lag)} behind; ${read}` : `Up to date; ${read}`;
  }
  if (!s.lag) return 'Up to date';
  return `${events(s.lag)} behind${
    s.oldestUndeliveredAt ? `; the oldest waiting ` + `since ${whenUtc(s.oldestUndeliveredAt)}` : ''
  }`;
}

function failuresOf(s: SubscriptionState): string {
  if (!s.failures) return 'None';
  const since = s.failingSince ? ` since ${whenUtc(s.failingSince)}` : '';
  const last =
    s.lastStatus !== undefined ? `HTTP ${s.lastStatus}${s.lastError ? `: ${s.lastError}` : ''}` : s.lastError;
  const next = s.nextAttemptAt ? `; the next attempt on ${whenUtc(s.nextAttemptAt)}` : '';
  return `${s.failures} failed ${s.failures === 1 ? 'attempt' : 'attempts'} at the next event${since}${
    last ? `; ` + `the last: ${last}` : ''
  }${next}`;
}

export const subscriptionViews = (subscriptions: readonly SubscriptionState[]): SubscriptionView[] =>
  subscriptions.map((s) => ({
    client: s.client,
    endpoint: s.webhook ?? 'Reads the feed (GET /v1/events)',
    events: s.events.join(', '),
    state: {
      ...STATES[s.state],
      ...(s.state === 'disabled'
        ? {
            detail:
              `The receiver answered 410 Gone${s.disabledAt ? ` on ${whenUtc(s.disabledAt)}` : ''}: ` +
              `nothing is sent until an operator enables it again.`,
          }
        : {}),
    },
    lag: lagOf(s),
    failures: failuresOf(s),
    deadLetters: s.webhook === undefined ? 'None (it reads the feed)' : s.deadLetters ? events(s.deadLetters) : 'None',
  }));
