/**
 * The live mock: a new invented registration (src/generate/) of a random type every so often,
 * loaded through the one ingest pipeline like any file, so that a client team reading the change
 * feed sees events arrive and can fetch each record at its event's source and subject.
 */
import { recordAt } from '../generate/records.ts';
import { type Source, loadSources } from '../load/loader.ts';
import type { RecordDescription } from '../records/define.ts';
import type { RecordWriter } from '../model/store.ts';

/** The most registrations a running mock invents: the store stays small however long it runs (a day at 30 s). */
export const MOCK_ADDED_LIMIT = 3000;
/** Beside the built-in records' ids (under 1,000,000,000), apart from the generator's default. */
const FIRST_ID = 2_000_000_000;
const SEED = 'the live mock';

export interface LiveMock {
  /** Adds the next invented registration now (what the timer does); false once the limit is reached. */
  addOne(): Promise<boolean>;
  stop(): void;
}

/**
 * Adds a registration of one of `descriptions` every `intervalS`
 * seconds (none when 0), at most MOCK_ADDED_LIMIT; `failed` hears a load that failed (the timer goes on).
 */
export function startLiveMock(
  writer: RecordWriter,
  intervalS: number,
  failed: (error: Error) => void,
  random: () => number,
  descriptions: readonly RecordDescription[],
): LiveMock {
  const added = new Map<RecordDescription, number>(descriptions.map((type) => [type, 0]));
  let total = 0;
  const addOne = async () => {
    if (total >= MOCK_ADDED_LIMIT) return false;
    const type = descriptions[Math.floor(random() * descriptions.length)];
    const position = added.get(type)!;
    added.set(type, position + 1);
    total++;
    const record = recordAt(type, { count: MOCK_ADDED_LIMIT, seed: SEED, firstId: FIRST_ID }, position);
    const source: Source = {
      name: `an invented ${type.name} registration`,
      size: undefined,
      open: () => [JSON.stringify(record)],
    };
    await loadSources(writer, type, [source]);
    return true;
  };
  const timer = intervalS > 0 ? setInterval(() => void addOne().catch(failed), intervalS * 1000).unref() : undefined;
  return { addOne, stop: () => clearInterval(timer) };
}
