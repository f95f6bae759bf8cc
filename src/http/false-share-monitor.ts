/**
 * Watches each client's share of verifications answered false over a sliding
 * window: a client trying names and dates until one verifies (enumeration)
 * gets almost nothing but false, where a service checking the certificates in
 * front of it mostly gets true. Past the threshold, once the client has made
 * enough verifications in the window for the share to mean something, an alarm
 * is raised, at most once a window per client while the share stays high.
 *
 * Memory is bounded: a client's window is a fixed ring of slots, and at most
 * MAX_CLIENTS clients are tracked, the least recently seen dropped first (a
 * dropped client starts again from nothing). Recency is a stamp on the tally
 * rather than the map's order: re-inserting the client on every answer cost
 * more than the rest of the counting, and the stamps are sorted only when the
 * map is full.
 */
import type { VerificationConfig } from '../config/verification.ts';

export const MAX_CLIENTS = 10_000;
/** Slots per window: the window slides by a tenth of itself. */
const SLOTS = 10;

export interface FalseShareAlarm {
  readonly client: string;
  /** The dataset of the verification that tipped the share over. */
  readonly dataset: string;
  readonly answers: number;
  readonly falseShare: number;
}

interface Tally {
  /** For each slot, the number of the period it counts (periods are windowMs / SLOTS long). */
  readonly period: number[];
  readonly answers: number[];
  readonly falses: number[];
  /** No new alarm for this client before then. */
  quietUntil: number;
  /** When the client last answered, in the monitor's own count of answers. */
  seen: number;
}

export class FalseShareMonitor {
  private readonly clients = new Map<string, Tally>();
  private readonly periodMs: number;
  private answered = 0;

  constructor(
    private readonly settings: VerificationConfig['falseShare'],
    private readonly alarm: (alarm: FalseShareAlarm) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.periodMs = settings.windowMs / SLOTS;
  }

  /** Counts one answer of the client's. */
  record(client: string, dataset: string, verified: boolean): void {
    const now = this.now();
    const period = Math.floor(now / this.periodMs);
    const tally = this.tallyOf(client);
    const slot = period % SLOTS;
    if (tally.period[slot] !== period) {
      tally.period[slot] = period;
      tally.answers[slot] = 0;
      tally.falses[slot] = 0;
    }
    tally.answers[slot]++;
    if (!verified) tally.falses[slot]++;

    let answers = 0;
    let falses = 0;
    for (let i = 0; i < SLOTS; i++) {
      if (tally.period[i] <= period - SLOTS) continue;
      answers += tally.answers[i];
      falses += tally.falses[i];
    }
    const falseShare = falses / answers;
    if (answers >= this.settings.minCount && falseShare > this.settings.threshold && now >= tally.quietUntil) {
      tally.quietUntil = now + this.settings.windowMs;
      this.alarm({ client, dataset, answers, falseShare });
    }
  }

  /** Clients tracked now. */
  get size(): number {
    return this.clients.size;
  }

  private tallyOf(client: string): Tally {
    let tally = this.clients.get(client);
    if (!tally) {
      if (this.clients.size >= MAX_CLIENTS) this.dropOldest(Math.ceil(MAX_CLIENTS / 10));
      tally = {
        period: new Array(SLOTS).fill(-Infinity),
        answers: new Array(SLOTS).fill(0),
        falses: new Array(SLOTS).fill(0),
        quietUntil: -Infinity,
        seen: 0,
      };
      this.clients.set(client, tally);
    }
    tally.seen = ++this.answered;
    return tally;
  }

  private dropOldest(count: number): void {
    const oldest = [...this.clients].sort(([, a], [, b]) => a.seen - b.seen).slice(0, count);
    for (const [client] of oldest) this.clients.delete(client);
  }
}
