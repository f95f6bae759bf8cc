/**
 * Synthetic v1 registrations for benchmarks and load tests: realistic enough
 * that searches behave as on real data (common surnames shared by many
 * records, dates spread over a century, a few accented, hyphenated and
 * apostrophe names, the odd blocked record and re-registration pair), and
 * cheap enough to stream millions of them.
 *
 * Deterministic: the stream is cut into blocks of two records, and each block
 * is drawn from its own random stream derived from (type, seed, block number).
 * The same type, count and seed therefore give the same records, any record
 * can be rebuilt from its position alone (`searchSample` does so), and a
 * longer run starts with the records of a shorter one.
 *
 * A built-in type's records come from its builder tuned by hand (types/), which
 * writes what it tunes; the description gives every other key (shape.ts), null
 * where nothing is recorded, and invents any leaf described after the builder
 * was written (values.ts). Any other type is made from its description alone.
 */
import { type RecordDescription, readPath } from '../records/define.ts';
import { LATEST, dayNumber, iso } from './days.ts';
import { BLOCKED_SHARE, type TunedKind } from './kind.ts';
import { VALUE_MAKERS } from './makers.ts';
import { MISS_SURNAMES } from './names.ts';
import { firstWord, forename, pickCommunity } from './people.ts';
import { Random, type Seed, hashSeed } from './random.ts';
import { shapeOf } from './shape.ts';
import { births } from './builders/birth.ts';
import { deaths } from './builders/death.ts';
import { marriages } from './builders/marriage.ts';
import { partnerships } from './builders/partnership.ts';
import { type Rec, absentLeaves, blank, fillFromDescription } from './values.ts';

export { BLOCKED_SHARE } from './kind.ts';
export { VALUE_MAKERS } from './makers.ts';

/**
 * The types whose builders are tuned by hand (types/); any other described type's records are made from its
 * description.
 */
export const TUNED_TYPES = ['birth', 'death', 'marriage', 'partnership'] as const;
export type TunedType = (typeof TUNED_TYPES)[number];
const isTunedType = (type: string): type is TunedType => (TUNED_TYPES as readonly string[]).includes(type);

/** First id of a run unless the caller gives one. */
export const DEFAULT_FIRST_ID = 100_000_000;
/**
 * Share of two-record blocks that are a registration and its re-registration (so ~0.5% of records are
 * re-registrations).
 */
export const PAIR_SHARE = 0.01;

export interface GenerateOptions {
  readonly count: number;
  readonly seed: string;
  /** Id of the first record; the others follow one by one. Default 100000000. */
  readonly firstId?: number;
  /**
   * The days (day numbers, days since 1970-01-01, both included) the registrations' own event falls
   * on: a birth, a death, a marriage or a partnership's formation. Default the type's whole range
   * (`datesOf`): a window within it makes what one week or month of registrations looks like, the
   * file an operator loads into a register that already holds the years before.
   */
  readonly days?: readonly [number, number];
}

interface Kind {
  readonly description: RecordDescription;
  /** One registration whose event falls within `days`; a type built from its description alone takes no window. */
  readonly build: (r: Random, id: number, days: readonly [number, number]) => Rec;
  /**
   * The first registration (amended) and its re-registration, both without links; none for a type built from
   * its description alone.
   */
  readonly reregister?: (r: Random, first: Rec, id: number) => [Rec, Rec];
  /** Dates a search of this type plausibly asks for. */
  readonly dates: readonly [number, number];
  /** Gives a built record every key of the description (shape.ts). */
  readonly shape: (record: Rec) => Rec;
  /** Leaves of the description the builder does not write (described after it was): filled from the description. */
  readonly absent: readonly string[];
}

/** The builders tuned by hand for the built-in types, by name. */
const TUNED: Record<TunedType, TunedKind> = {
  birth: births,
  death: deaths,
  marriage: marriages,
  partnership: partnerships,
};

const DESCRIBED_DATES = [dayNumber(1950, 1, 1), LATEST] as const;

/** A record built from the description alone: every leaf filled, current, not blocked now and then. */
function describedBuild(description: RecordDescription): (r: Random, id: number) => Rec {
  const { blockedFlag } = description;
  const cancelled = description.verification.cancelledFlag;
  return (r, id) => {
    const record = fillFromDescription(description, blank(description.fields), r, VALUE_MAKERS);
    record.id = id;
    setFlag(record, blockedFlag, r.chance(BLOCKED_SHARE));
    if (cancelled) setFlag(record, cancelled, false);
    return record;
  };
}

function setFlag(record: Rec, path: string, value: boolean): void {
  const keys = path.split('.');
  let holder = record;
  for (const key of keys.slice(0, -1)) holder = holder[key];
  holder[keys[keys.length - 1]] = value;
}

const kinds = new WeakMap<RecordDescription, Kind>();

/**
 * How records of a type are made: its tuned builder when the generator has one for its name
 * (with any leaf the builder does not write filled from the description), else the description alone.
 */
function kindOf(type: string | RecordDescription): Kind {
  if (typeof type === 'string') {
    if (!isTunedType(type))
      throw new RangeError(`unknown record type '${type}': expected one of ${TUNED_TYPES.join(', ')}`);
    return kindOf(TUNED[type].description);
  }
  let kind = kinds.get(type);
  if (!kind) {
    const tuned = isTunedType(type.name) ? TUNED[type.name] : undefined;
    if (tuned) {
      const sample = tuned.build(Random.fromString('lev-generate absent leaves'), 1, tuned.dates);
      const unrecorded = new Set(tuned.unrecorded);
      const absent = absentLeaves(type, sample).filter((path) => !unrecorded.has(path));
      kind = { ...tuned, description: type, shape: shapeOf(type.fields, sample), absent };
    } else {
      kind = {
        description: type,
        build: describedBuild(type),
        dates: DESCRIBED_DATES,
        shape: (record) => record,
        absent: [],
      };
    }
    kinds.set(type, kind);
  }
  return kind;
}

/**
 * The days a type's registrations fall on, and whether a window within them may be asked for: only a
 * builder tuned by hand places its records' events on a day it is given.
 */
export function datesOf(type: string | RecordDescription): { days: readonly [number, number]; windowed: boolean } {
  const kind = kindOf(type);
  return { days: kind.dates, windowed: isTunedType(kind.description.name) };
}

/**
 * `days` as a window of `type`'s registrations: refused (a RangeError saying why) for a type built
 * from its description alone, a window reversed, or one reaching outside the type's days.
 */
export function checkWindow(
  type: string | RecordDescription,
  [from, to]: readonly [number, number],
): readonly [number, number] {
  const kind = kindOf(type);
  const name = kind.description.name;
  const [earliest, latest] = kind.dates;
  if (!isTunedType(name))
    throw new RangeError(`${name} records are built from their description alone: they take no date window`);
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) throw new RangeError('a window is of whole days');
  // Each end within the type's days first: only a day within them has a date to name it by (days.ts).
  if ([from, to].some((day) => day < earliest || day > latest))
    throw new RangeError(`the window reaches outside ${name} records' days, ${iso(earliest)} to ${iso(latest)}`);
  if (from > to) throw new RangeError(`the window's first day ${iso(from)} is after its last ${iso(to)}`);
  return [from, to];
}

function checkOptions(options: GenerateOptions, kind: Kind): Checked {
  const { count } = options;
  const firstId = options.firstId ?? DEFAULT_FIRST_ID;
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`count must be a whole number, 0 or more (got ${count})`);
  if (!Number.isSafeInteger(firstId) || firstId < 0)
    throw new RangeError(`firstId must be a whole number, 0 or more (got ${firstId})`);
  if (!Number.isSafeInteger(firstId + count)) throw new RangeError('firstId + count is beyond the largest safe id');
  const days = options.days ? checkWindow(kind.description, options.days) : kind.dates;
  return { count, firstId, days };
}

interface Checked {
  readonly count: number;
  readonly firstId: number;
  readonly days: readonly [number, number];
}

const typeName = (type: string | RecordDescription) => (typeof type === 'string' ? type : type.name);
const streamSeed = (type: string | RecordDescription, seed: string): Seed =>
  hashSeed(`lev-generate\u0000${typeName(type)}\u0000${seed}`);
/** The stream of the values a tuned builder does not write: apart from its own, so its records stay as they were. */
const absentSeed = (type: string | RecordDescription, seed: string): Seed =>
  hashSeed(`lev-generate-absent\u0000${typeName(type)}\u0000${seed}`);

/**
 * The records of block `block` (positions 2·block and 2·block + 1): two
 * independent registrations, or a registration and its re-registration, each
 * embedding the other (pointing outwards only). `both` is false for a last
 * block with room for one record; the first record is the same either way.
 */
function makeBlock(kind: Kind, seed: Seed, absent: Seed, block: number, checked: Checked, both: boolean): Rec[] {
  const { firstId, days } = checked;
  const r = Random.derive(seed, block);
  const { shape } = kind;
  const complete = kind.absent.length
    ? (
        (extra: Random) => (record: Rec) =>
          fillFromDescription(kind.description, shape(record), extra, VALUE_MAKERS, { paths: kind.absent })
      )(Random.derive(absent, block))
    : shape;
  const paired = r.chance(PAIR_SHARE);
  const id = firstId + block * 2;
  const first = complete(kind.build(r, id, days));
  if (!both) return [first];
  if (!paired || !kind.reregister) return [first, complete(kind.build(r, id + 1, days))];
  const [earlier, later] = kind.reregister(r, first, id + 1).map(complete);
  return [
    { ...earlier, nextRegistration: later },
    { ...later, previousRegistration: earlier },
  ];
}

/**
 * `count` complete v1 records of `type` (a description, or the name of a tuned type), ids
 * `firstId`, `firstId + 1`, ... Lazy: memory stays constant whatever the count.
 */
export function* generateRecords(
  type: string | RecordDescription,
  options: GenerateOptions,
): Generator<Record<string, unknown>> {
  const kind = kindOf(type);
  const checked = checkOptions(options, kind);
  const seed = streamSeed(type, options.seed);
  const absent = absentSeed(type, options.seed);
  for (let position = 0, block = 0; position < checked.count; position += 2, block++) {
    const records = makeBlock(kind, seed, absent, block, checked, position + 1 < checked.count);
    yield records[0];
    if (records.length > 1) yield records[1];
  }
}

/** The record at `position` (0-based) of the stream `generateRecords(type, options)` gives. */
export function recordAt(
  type: string | RecordDescription,
  options: GenerateOptions,
  position: number,
): Record<string, unknown> {
  const kind = kindOf(type);
  const checked = checkOptions(options, kind);
  const { count } = checked;
  if (!Number.isSafeInteger(position) || position < 0 || position >= count)
    throw new RangeError(`position ${position} is outside 0..${count - 1}`);
  const block = Math.floor(position / 2);
  const records = makeBlock(
    kind,
    streamSeed(type, options.seed),
    absentSeed(type, options.seed),
    block,
    checked,
    block * 2 + 1 < count,
  );
  return records[position % 2];
}

export interface SearchSample {
  /** A v1 search query: `surname`, `forenames` and the type's date parameter (e.g. `dateOfBirth`). */
  readonly query: Readonly<Record<string, string>>;
  /** The id of a record the search must find (it may find others too), or null when it must find nothing. */
  readonly expectId: number | null;
}

/**
 * `n` v1 search queries against the records `generateRecords(type, options)`
 * gives, alternating hits and misses. A hit is made from a record rebuilt from
 * its position (positions spread evenly over the stream; forenames given in
 * full or as the first word; for deaths the date of birth or of death; for
 * marriages and partnerships either party). A miss asks for a plausible
 * forename and date with a surname the generator never uses.
 */
export function searchSample(type: string | RecordDescription, options: GenerateOptions, n: number): SearchSample[] {
  const kind = kindOf(type);
  const { count, days } = checkOptions(options, kind);
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`n must be a whole number, 0 or more (got ${n})`);
  const r = Random.fromString(`lev-search\u0000${typeName(type)}\u0000${options.seed}`);
  const { parties, dateParam } = kind.description.search;
  const hits = count === 0 ? 0 : Math.ceil(n / 2);
  const samples: SearchSample[] = [];
  for (let i = 0; i < n; i++) {
    const j = i >> 1;
    if (i % 2 === 0 && j < hits) {
      const position = Math.min(count - 1, Math.floor(((2 * j + 1) * count) / (2 * hits)));
      const record = recordAt(type, options, position);
      const party = parties[j % parties.length];
      const surname = readPath(record, party.surname) as string;
      const forenames = readPath(record, party.forenames) as string;
      const dates = party.dates.map((path) => readPath(record, path)).filter((d): d is string => typeof d === 'string');
      samples.push({
        query: {
          surname,
          forenames: r.chance(0.5) ? firstWord(forenames) : forenames,
          [dateParam]: dates[r.int(0, dates.length - 1)],
        },
        expectId: record.id as number,
      });
    } else {
      const male = r.chance(0.5);
      const bornIn = r.int(1900, 2020);
      samples.push({
        query: {
          surname: r.pick(MISS_SURNAMES),
          forenames: forename(r, pickCommunity(r, false, bornIn), male, bornIn),
          [dateParam]: iso(r.int(days[0], days[1])),
        },
        expectId: null,
      });
    }
  }
  return samples;
}
