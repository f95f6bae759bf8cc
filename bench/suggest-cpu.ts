/**
 * CPU time of a close match, per query, on the memory store: births generated (the generator of
 * `lev-api generate`), queries made by the error model of bench/lib/errors.ts, each asked of
 * `closeMatches` as the route asks it. With `--against DIR` (another checkout of this repository,
 * its dependencies installed) the same queries are asked of that checkout's `closeMatches` over
 * its own memory store, the two alternated round by round in one process, and the ratio given: an
 * A/B that the machine's other load touches alike; the two's answers are compared, query by query.
 * `--profile FILE` writes a CPU profile of the queries alone (not the load) for bench/profile-summary.ts.
 * `--one-day N` puts the first N births on one day (ONE_DAY) and asks only of them, with that date and
 * their names as the error model leaves them: what the date pass costs with N registrations a day (the
 * national register has 1,500 to 2,500). `--index-only` gives each side its close-match index alone
 * (store/suggestion-index.ts) rather than a memory store: the records are not held, as the service holds
 * none with SUGGESTION_INDEX=service on PostgreSQL, so the collector has no heap of records to walk (at a
 * million births that walk was a fifth of the CPU, and moved the A/B by 10% and more from run to run).
 *
 *   node --import tsx bench/suggest-cpu.ts [--births 100000] [--queries 2000] [--rounds 4] \
 *     [--against /path/to/checkout] [--profile FILE] [--one-day N] [--built] [--index-only]
 */
import { rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { dirname, resolve } from 'node:path';
import { configReference } from '../src/config/index.ts';
import { recordType } from '../src/load/conversion.ts';
import { generateRecords, recordAt } from '../src/generate/records.ts';
import { Random } from '../src/generate/random.ts';
import { type Party, readPath } from '../src/records/define.ts';
import { loadRecordTypes } from '../src/records/index.ts';
import { normaliseName } from '../src/records/normalise.ts';
import type { RecordToWrite, SearchKey } from '../src/model/records.ts';
import { bundle } from '../scripts/bundle.ts';
import { askable, withErrors } from './lib/errors.ts';

/** The record types, read once by this script. */
const records = await loadRecordTypes();

const { values: options } = parseArgs({
  options: {
    births: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    against: { type: 'string' },
    seed: { type: 'string', default: 'suggest' },
    profile: { type: 'string' },
    'one-day': { type: 'string' },
    built: { type: 'boolean', default: false },
    'index-only': { type: 'boolean', default: false },
  },
});
const births = Number(options.births);
const queryCount = Number(options.queries);
const rounds = Number(options.rounds);
const seed = options.seed as string;
const floor = Number(configReference().find((s) => s.name === 'SUGGEST_MIN_PROBABILITY')?.default);
const type = 'birth';
const oneDay = options['one-day'] === undefined ? 0 : Number(options['one-day']);
const ONE_DAY = '1990-06-15';

interface Side {
  readonly name: string;
  readonly ask: (query: SearchKey) => Promise<unknown>;
  micros: number;
  n: number;
  readonly sizes: { keys: number; candidates: number; asked: number };
}

let compilations = 0;

/** A checkout's memory store filled with the births, and its closeMatches over it. */
async function side(name: string, root: string): Promise<Side> {
  // tsx keeps functions' names by wrapping them, which inflates a closure's cost: --built measures
  // each checkout's sources compiled as dist/ is (scripts/bundle.ts), into a folder of the bench's.
  const MODULES = ['store/memory-records', 'store/suggestion-index', 'match/suggest'];
  // A folder for each checkout: two checkouts may share one node_modules (a link to this one's).
  const compiled = resolve(
    root,
    'node_modules',
    '.cache',
    `lev-suggest-cpu-${process.pid}-${++compilations}`,
    'compiled',
  );
  if (options.built) {
    process.once('exit', () => rmSync(dirname(compiled), { recursive: true, force: true }));
    await bundle({
      sources: resolve(root, 'src'),
      outdir: compiled,
      entries: MODULES.map((path) => resolve(root, 'src', `${path}.ts`)),
    });
  }
  const module = (path: string) => (options.built ? resolve(compiled, `${path}.js`) : resolve(root, `src/${path}.ts`));
  const [{ createMemoryRecords }, { createSuggestionIndex }, { closeMatches }] = await Promise.all(
    MODULES.map((path) => import(module(path))),
  );
  const store = createMemoryRecords(records);
  const index = options['index-only'] ? createSuggestionIndex() : undefined;
  const checked = recordType(records.find((d) => d.name === type)!);
  async function* batches(): AsyncGenerator<RecordToWrite[]> {
    let batch: RecordToWrite[] = [];
    let at = 0;
    for (const entry of generateRecords(type, { count: births, seed })) {
      if (at++ < oneDay) (entry as { child: { dateOfBirth: string } }).child.dateOfBirth = ONE_DAY;
      const stored = checked.toStored(entry);
      if ('reason' in stored) throw new Error(stored.reason);
      if (index) {
        index.add(stored.id, stored.keys);
        continue;
      }
      batch.push({ id: stored.id, json: JSON.stringify(stored.data), keys: stored.keys });
      if (batch.length === 5000) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }
  await store.writer.write(type, batches());
  // A checkout from before the index settled after a bulk write has no settle.
  index?.settle?.();
  // Counted on the side: how many keys a query asks for and how many candidates it brings.
  const reader = {
    registerCounts: index
      ? async (_t: string, surname: string, forename: string) => ({
          records: births,
          ...index.nameCounts(surname, forename),
        })
      : store.reader.registerCounts,
    async suggestionCandidates(t: string, passes: readonly { keys: readonly unknown[] }[]) {
      const found = index ? index.candidates(passes) : await store.reader.suggestionCandidates(t, passes);
      sizes.keys += passes.reduce((sum, pass) => sum + pass.keys.length, 0);
      sizes.candidates += found.ids.length;
      sizes.asked++;
      return found;
    },
  };
  const sizes = { keys: 0, candidates: 0, asked: 0 };
  return {
    name,
    ask: (query) => closeMatches(reader, type, query, { limit: 10, minProbability: floor }),
    micros: 0,
    n: 0,
    sizes,
  };
}

function makeQueries(): SearchKey[] {
  const parties: readonly Party[] = records.find((d) => d.name === type)!.search.parties;
  const r = Random.fromString(`suggest-cpu\u0000${seed}`);
  const surnames: string[] = [];
  const forenames: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const record = recordAt(type, { count: births, seed }, r.int(0, births - 1));
    const party = r.pick(parties);
    surnames.push(readPath(record, party.surname) as string);
    forenames.push(readPath(record, party.forenames) as string);
  }
  const found: SearchKey[] = [];
  while (found.length < queryCount) {
    const record = recordAt(type, { count: births, seed }, r.int(0, (oneDay || births) - 1));
    const party = r.pick(parties);
    const surname = readPath(record, party.surname);
    const given = readPath(record, party.forenames);
    const date = oneDay ? ONE_DAY : readPath(record, party.dates[0]);
    if (typeof surname !== 'string' || typeof given !== 'string' || typeof date !== 'string') continue;
    const { details } = withErrors({ surname, forenames: given, date }, { surnames, forenames }, r);
    if (!askable(details) || !normaliseName(details.surname) || !normaliseName(details.forenames)) continue;
    found.push({
      surname: normaliseName(details.surname),
      forenames: normaliseName(details.forenames),
      date: oneDay ? ONE_DAY : details.date,
    });
  }
  return found;
}

const sides = [await side('this checkout', '.')];
if (options.against) sides.push(await side(options.against, options.against));
const queries = makeQueries();
// The warm-up: every query asked of each side once, their answers compared.
const answers = await Promise.all(
  sides.map(async (s) => {
    const all: string[] = [];
    for (const query of queries) all.push(JSON.stringify(await s.ask(query)));
    return all;
  }),
);
if (sides.length === 2)
  console.log(
    `answers differing between the two: ${answers[0].filter((answer, i) => answer !== answers[1][i]).length} ` +
      `of ${queries.length}`,
  );
const session = options.profile ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
for (let round = 0; round < rounds; round++) {
  for (const s of round % 2 ? [...sides].reverse() : sides) {
    const started = process.cpuUsage();
    for (const query of queries) await s.ask(query);
    const used = process.cpuUsage(started);
    s.micros += used.user + used.system;
    s.n += queries.length;
  }
}
if (session) {
  const { profile } = await session.post('Profiler.stop');
  await writeFile(options.profile as string, JSON.stringify(profile));
  session.disconnect();
}
for (const s of sides) {
  const { keys, candidates, asked } = s.sizes;
  console.log(
    `${s.name}: ${(s.micros / s.n).toFixed(1)} µs CPU a query (${s.n} queries, ${births} ` +
      `births; ${(keys / asked).toFixed(0)} keys, ${(candidates / asked).toFixed(0)} candidates a query)`,
  );
}
if (sides.length === 2)
  console.log(`ratio (this / against): ${(sides[0].micros / sides[0].n / (sides[1].micros / sides[1].n)).toFixed(3)}`);
