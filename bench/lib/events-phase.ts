/**
 * The change feed's phase: reading every event of a load, and readers waiting while it commits.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_FIRST_ID } from '../../src/generate/records.ts';
import { cleanups } from './cleanup.ts';
import { type ReadResult, type WaitResult, feedHead, percentile, readEvery, waitingReaders } from './events.ts';
import type { Options } from './options.ts';
import { freePort, run, runMeasured, startServer } from './processes.ts';
import { LEV_API, type Started, serviceEnv } from './targets.ts';

const EVENT_FILES = 10;

/**
 * The events phase: on PostgreSQL, `records` births loaded in ten files (ten commits) while
 * `readers` wait with wait=30, then one reader reads every event of that load at limit=1000; on
 * the embedded store (whose records are loaded at start) one reader reads every event of that
 * start, and the waiting readers follow a mock service adding a registration every second.
 */
export async function eventsPhase(
  opts: Options,
  settings: { records: number; readers: number },
  target: Started,
  work: string,
): Promise<string[]> {
  const { server, store } = target;
  const notes: Record<string, unknown> = {};
  let read: ReadResult;
  let waited: WaitResult;
  if (store === 'embedded') {
    read = await readEvery(server.url);
    const port = await freePort();
    const mock = await startServer(
      'embedded mock (events)',
      [],
      [LEV_API, 'serve'],
      serviceEnv(opts, { PORT: String(port), MOCK_EVENT_INTERVAL_S: '1' }),
      port,
      60,
    );
    cleanups.push(() => mock.stop());
    try {
      waited = await waitingReaders(
        mock.url,
        settings.readers,
        await feedHead(mock.url),
        () => new Promise((resolve) => setTimeout(resolve, 10_000)),
      );
    } finally {
      await mock.stop();
    }
  } else {
    const head = await feedHead(server.url);
    const files: string[] = [];
    const per = Math.ceil(settings.records / EVENT_FILES);
    for (let i = 0; i < EVENT_FILES; i++) {
      const file = join(work, `events-${i}.ndjson`);
      // Ids beyond every generated dataset's.
      const firstId = DEFAULT_FIRST_ID + 500_000_000 + i * per;
      await run(
        [
          LEV_API,
          'generate',
          '--type',
          'birth',
          '--count',
          String(per),
          '--seed',
          `${opts.seed}-events`,
          '--first-id',
          String(firstId),
          '--out',
          file,
        ],
        process.env,
        60 + per / 500,
      );
      files.push(file);
    }
    const env = serviceEnv(opts, {
      DATABASE_URL: opts.databaseUrl!,
      DATABASE_SCHEMA: String((target.notes as { schema: string }).schema),
    });
    let load: { seconds: number; peakMiB: number | null } | undefined;
    waited = await waitingReaders(server.url, settings.readers, head, async () => {
      load = await runMeasured([LEV_API, 'load', '--type', 'birth', ...files], env, 300 + settings.records / 1000);
    });
    for (const file of files) await rm(file, { force: true });
    read = await readEvery(server.url, head);
    notes.load = {
      records: per * EVENT_FILES,
      seconds: load!.seconds,
      perSecond: (per * EVENT_FILES) / load!.seconds,
      peakMiB: load!.peakMiB,
    };
  }
  const { latenciesMs } = waited;
  const p50 = percentile(latenciesMs, 50);
  const p99 = percentile(latenciesMs, 99);
  Object.assign(notes, {
    read,
    waiting: {
      readers: settings.readers,
      answers: latenciesMs.length,
      p50Ms: p50,
      p99Ms: p99,
      maxMs: Math.max(...latenciesMs),
    },
  });
  (target.notes as Record<string, unknown>).events = notes;
  const load = notes.load as { records: number; perSecond: number; peakMiB: number | null } | undefined;
  return [
    `events (${store}): one reader read ${read.events.toLocaleString('en-GB')} events at limit=1000 ` +
      `in ${read.seconds.toFixed(2)} s, ` +
      `${Math.round(read.perSecond).toLocaleString('en-GB')} events/s (target 50,000)`,
    `events (${store}): ${settings.readers} readers waiting with ` +
      `wait=30${
        store === 'embedded'
          ? ' on the mock adding one a second'
          : ` while ${load!.records.toLocaleString('en-GB')} births loaded in ${EVENT_FILES} commits`
      }: ` +
      `${latenciesMs.length} answers, from commit to answer p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ` +
      `ms (target under 500 ms)` +
      (load
        ? `; the load ran at ${Math.round(load.perSecond).toLocaleString('en-GB')} records/s, its RSS ` +
          `peaking at ${load.peakMiB?.toFixed(0) ?? '?'} MiB`
        : ''),
  ];
}
