/**
 * What a builder tuned by hand for one record type gives the stream (records.ts), and the shares
 * and wording every tuned builder uses alike.
 */
import type { RecordDescription } from '../records/define.ts';
import type { Random } from './random.ts';
import type { Rec } from './values.ts';

/** Share of blocked records. */
export const BLOCKED_SHARE = 0.001;

export interface TunedKind {
  /** The description the builder is tuned for. */
  readonly description: RecordDescription;
  /**
   * One registration whose own event (a birth, a death, a marriage) falls within `days` (within `dates`), without
   * the keys it does not tune (shape.ts gives them from the description).
   */
  readonly build: (r: Random, id: number, days: readonly [number, number]) => Rec;
  /** The first registration (amended) and its re-registration, both without links. */
  readonly reregister: (r: Random, first: Rec, id: number) => [Rec, Rec];
  /** Dates a search of this type plausibly asks for. */
  readonly dates: readonly [number, number];
  /** Leaves the builder never records (dot paths): null in every record, where a leaf it does not know is invented. */
  readonly unrecorded?: readonly string[];
}

/** A note the register seldom makes, or 'None'. */
export const none = (r: Random, p: number, notes: readonly string[]): string => (r.chance(p) ? r.pick(notes) : 'None');

export const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Another name a party has used, as a register's list of aliases holds it (no prefix or suffix recorded). */
export const alias = (forenames: string | null, surname: string | null) => ({
  prefix: null,
  forenames,
  surname,
  suffix: null,
});
