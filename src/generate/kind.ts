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
  /** One registration, every key of the field tree present. */
  readonly build: (r: Random, id: number) => Rec;
  /** The first registration (amended) and its re-registration, both without links. */
  readonly reregister: (r: Random, first: Rec, id: number) => [Rec, Rec];
  /** Dates a search of this type plausibly asks for. */
  readonly dates: readonly [number, number];
}

/** A note the register seldom makes, or 'None'. */
export const none = (r: Random, p: number, notes: readonly string[]): string => (r.chance(p) ? r.pick(notes) : 'None');

export const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Groups with nothing recorded. Shared and frozen: records are only ever serialised. */
export const nullGroup = <K extends string>(...keys: K[]): Readonly<Record<K, null>> =>
  Object.freeze(Object.fromEntries(keys.map((k) => [k, null])) as Record<K, null>);
