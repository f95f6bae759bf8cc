/**
 * How far a turn got, recorded under its lease. An event is taken when it got its 2xx and its
 * attempt's audit entry is committed; only then may its position be recorded, so a position never
 * stands for a delivery the trail lacks. The next event is sent as soon as one gets its 2xx, while
 * its entry commits in the background (`keep`), and the position of the events taken is recorded
 * behind the sending: one UPDATE at a time, for every event taken since the last, at most one every
 * POSITION_EVERY_MS. Each UPDATE also extends the lease, and tells the turn whether the
 * subscription is still active (so it need not ask the store separately). A worker that dies before it lands leaves
 * those events to be sent again, with the same webhook-id, and audited again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { AttemptOutcome, Lease, WebhookStore } from '../model/webhooks.ts';
import type { ActiveCheck } from './active.ts';
import type { DeliveryLog } from './worker.ts';

/**
 * The least time between two recordings of a sending subscription's position: one commit for every
 * event taken in that time rather than one an event, at the cost of sending that time's events again
 * after a crash. The end of a turn records at once.
 */
export const POSITION_EVERY_MS = 25;

interface PositionRecorder {
  /** A 2xx'd event whose audit entry is committing. */
  keep(position: number, kept: Promise<void>): void;
  /** Resolves once at most `limit` 2xx'd events have entries not yet committed. */
  room(limit: number): Promise<void>;
  /** An entry that could not be kept: nothing after it is taken in this turn, and the turn stops. */
  unkept(error: unknown): void;
  /** Records an outcome at once (a failure, a dead letter, a 410); false when the lease was lost. */
  record(outcome: AttemptOutcome): Promise<boolean>;
  /** Every event taken recorded (or the lease lost, or the database failing: `trouble`). */
  settle(): Promise<void>;
  /** However the turn ended, what was taken is recorded if it can be while the lease lasts. */
  finish(stopping: AbortSignal, pollMs: number): Promise<void>;
  /** Milliseconds since the lease was last extended, by this process's clock. */
  leaseAge(): number;
  readonly lost: boolean;
  /** The database failing (a position not recorded) or an audit entry not kept. */
  readonly trouble: unknown;
}

interface PositionOptions {
  readonly leaseMs: number;
  readonly claimedAt: number;
  readonly log: DeliveryLog;
  /** Told what each recording found of the subscription (still active or not), as of when it was sent. */
  readonly active?: Pick<ActiveCheck, 'seen'>;
}

export function positionRecorder(
  store: WebhookStore,
  lease: Lease,
  { leaseMs, claimedAt, log, active }: PositionOptions,
): PositionRecorder {
  const { endpoint } = lease;
  let taken = endpoint.deliveredThrough;
  let recorded = endpoint.deliveredThrough;
  // When the lease was last extended, taken before the statement was sent.
  let leaseFrom = claimedAt;
  let lost = false;
  let trouble: unknown;
  // An entry not kept: nothing after it counts as taken in this turn.
  let broken = false;
  let recording: Promise<void> | undefined;
  // When the position was last recorded; a turn ending (`hurry`) records without waiting.
  let recordedAt = -Infinity;
  let hurry = false;
  /** The 2xx'd events whose entries are not yet committed, oldest first; each `settled` never rejects. */
  const unkeptYet: { position: number; settled: Promise<void> }[] = [];

  const record = async (outcome: AttemptOutcome) => {
    const sent = performance.now();
    const recorded = await store.record(lease, outcome, leaseMs);
    if (!recorded) {
      if (!lost) log.warn({ subscription: endpoint.client }, 'webhook lease lost: another worker has the subscription');
      lost = true;
      return false;
    }
    leaseFrom = sent;
    active?.seen(sent, recorded.active);
    return true;
  };
  const recordTaken = async () => {
    while (recorded < taken && !lost) {
      const wait = recordedAt + POSITION_EVERY_MS - performance.now();
      if (wait > 0 && !hurry) await sleep(wait);
      const through = taken;
      recordedAt = performance.now();
      if (await record({ kind: 'delivered', position: through })) recorded = through;
    }
  };
  const kick = () => {
    recording ??= recordTaken()
      .catch((error: unknown) => void (trouble = error))
      .finally(() => void (recording = undefined));
  };
  const unkept = (error: unknown) => {
    broken = true;
    trouble ??= error;
  };
  /** Every entry handed to the writer committed or failed. */
  const allKept = async () => {
    while (unkeptYet.length) await unkeptYet[0].settled;
  };

  return {
    /**
     * The audit writer commits a subscription's entries in the order given (one group at a time),
     * so they settle in feed order; a position is taken only if every entry before it in this turn
     * was kept.
     */
    keep(position, kept) {
      const settled = kept.then(() => {
        if (broken) return;
        taken = position;
        kick();
      }, unkept);
      unkeptYet.push({ position, settled });
      void settled.finally(() =>
        unkeptYet.splice(
          unkeptYet.findIndex((e) => e.settled === settled),
          1,
        ),
      );
    },
    async room(limit) {
      while (unkeptYet.length > limit) await unkeptYet[0].settled;
    },
    unkept,
    record,
    async settle() {
      hurry = true;
      await allKept();
      while (recording) await recording;
      if (trouble === undefined && recorded < taken && !lost) {
        kick();
        await recording;
      }
      hurry = false;
    },
    async finish(stopping, pollMs) {
      hurry = true;
      await allKept();
      while (recording) await recording;
      while (recorded < taken && !lost && performance.now() - leaseFrom < leaseMs - pollMs) {
        try {
          await recordTaken();
        } catch {
          if (stopping.aborted) break;
          await sleep(pollMs);
        }
      }
    },
    leaseAge: () => performance.now() - leaseFrom,
    get lost() {
      return lost;
    },
    get trouble() {
      return trouble;
    },
  };
}
