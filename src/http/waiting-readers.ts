/**
 * Seats for change-feed readers held open with `wait`: at most FEED_MAX_WAITING_PER_CLIENT for one
 * client (429 beyond it) and at most a share of MAX_CONNECTIONS for all of them (503 beyond it),
 * so that waiting readers, which hold a connection doing nothing for up to 30 s, can never take
 * the places ordinary requests need. A reader refused a seat is told when to try again: when the
 * first of its client's waits (or of all waits) ends.
 */
import { ApiError, limitReached } from '../errors.ts';

export interface WaitingLimits {
  /** Waiting requests one client may hold at once. */
  readonly perClient: number;
  /** Waiting requests all clients together may hold at once. */
  readonly total: number;
}

interface WaitingSeats {
  /**
   * A seat until `deadline` (ms since the epoch) for `client`, released by the function returned; throws the
   * 429 or 503.
   */
  take(client: string, deadline: number): () => void;
  /** Requests waiting now (for tests and the metric). */
  readonly count: number;
}

const secondsUntil = (deadlines: Iterable<number>) =>
  Math.max(1, Math.ceil((Math.min(...deadlines) - Date.now()) / 1000));

export function waitingSeats(limits: WaitingLimits): WaitingSeats {
  const byClient = new Map<string, Map<symbol, number>>();
  const all = new Map<symbol, number>();
  return {
    take(client, deadline) {
      const mine = byClient.get(client) ?? new Map<symbol, number>();
      if (mine.size >= limits.perClient) {
        const seconds = secondsUntil(mine.values());
        throw new ApiError(
          429,
          'TooManyRequests',
          `This client already holds ${mine.size} waiting reads of the change feed, the most it may ` +
            `(FEED_MAX_WAITING_PER_CLIENT): retry in ${seconds} s, or read without 'wait'`,
          { 'retry-after': String(seconds) },
        );
      }
      if (all.size >= limits.total) {
        const seconds = secondsUntil(all.values());
        throw limitReached(
          `The change feed holds as many waiting reads as it may: retry in ${seconds} s, or read without 'wait'`,
          seconds,
        );
      }
      const seat = Symbol(client);
      mine.set(seat, deadline);
      byClient.set(client, mine);
      all.set(seat, deadline);
      return () => {
        all.delete(seat);
        mine.delete(seat);
        if (mine.size === 0 && byClient.get(client) === mine) byClient.delete(client);
      };
    },
    get count() {
      return all.size;
    },
  };
}

/** The waiting reads all clients may hold: `share` of MAX_CONNECTIONS, at least one. */
export const waitingTotal = (maxConnections: number, share: number) =>
  Number.isFinite(maxConnections) ? Math.max(1, Math.floor(maxConnections * share)) : Infinity;
