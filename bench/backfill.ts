/**
 * `npm run bench:backfill`: what an upgrade whose migration sets the close-match keys' backfill going
 * again costs an operator (src/store/suggestion-backfill.ts): `lev-api migrate` works every record's
 * keys out again while `/readiness` answers 503. For a register of --births births, generated and
 * loaded as the scale bench does, on its own cluster and settings (bench/lib/scale-database.ts), and
 * vacuumed, the backfill is timed twice: with every key there already (each insert a conflict) and
 * with the key table emptied (each written). Migration 20 leaves four keys a record in five in place,
 * migrations 13, 15 and 16 none, so an upgrade's backfill lies between the two. With --statements the
 * server logs each statement and the time of each kind is given.
 *
 *   npm run bench:backfill -- [--births 1000000] [--seed scale] [--server URL] [--work DIR] [--statements]
 */
import { createReadStream, mkdtempSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cleanUp, cleanUpOnSignals, cleanups } from './lib/cleanup.ts';
import { log } from './lib/log.ts';
import { runMeasured } from './lib/processes.ts';
import { TUNED_SETTINGS, givenServer, makeDatabase, ownCluster, query } from './lib/scale-database.ts';
import { LEV_API, serviceEnv } from './lib/targets.ts';

const { values } = parseArgs({
  options: {
    births: { type: 'string', default: '1000000' },
    seed: { type: 'string', default: 'scale' },
    server: { type: 'string' },
    work: { type: 'string', default: tmpdir() },
    statements: { type: 'boolean', default: false },
  },
});
const births = Number(values.births);
if (!Number.isSafeInteger(births) || births < 1000) throw new Error(`--births must be 1000 or more (got ${births})`);

async function main() {
  cleanUpOnSignals();
  const work = mkdtempSync(join(values.work, 'lev-backfill-'));
  cleanups.push(() => rm(work, { recursive: true, force: true }));
  const server = values.server
    ? givenServer(values.server, TUNED_SETTINGS)
    : await ownCluster(values.work, TUNED_SETTINGS);
  cleanups.push(() => server.stop());
  const database = await makeDatabase(server, 'lev_backfill');
  cleanups.push(() => database.drop());
  const env = serviceEnv({ settings: {} }, { DATABASE_URL: database.url });
  await runMeasured([LEV_API, 'migrate'], env, 300, { stdout: 'stderr' });

  const file = join(work, 'births.ndjson');
  log(`generating ${births.toLocaleString('en-GB')} births`);
  await runMeasured(
    [LEV_API, 'generate', '--type', 'birth', '--count', String(births), '--seed', values.seed, '--out', file],
    process.env,
    120 + births / 2000,
  );
  const load = await runMeasured([LEV_API, 'load', '--type', 'birth', file], env, 300 + births / 1000, {
    stdout: 'stderr',
  });
  await rm(file, { force: true });
  await query(database.url, 'VACUUM (ANALYZE)');
  await query(database.url, 'CHECKPOINT');
  const [{ keys }] = await query<{ keys: string }>(
    database.url,
    'SELECT count(*)::text AS keys FROM birth_suggestion_key',
  );

  const serverLog = values.statements ? server.log : undefined;
  const logFrom = serverLog === undefined ? undefined : await logLength(serverLog);
  if (logFrom !== undefined)
    // Each statement, without its parameters: a batch's are two arrays of tens of thousands of keys.
    await query(
      database.url,
      'ALTER DATABASE lev_backfill SET log_min_duration_statement = 0; ' +
        'ALTER DATABASE lev_backfill SET log_parameter_max_length = 0',
    );
  const rows: string[] = [];
  const timeBackfill = async (what: string, before = '') => {
    await query(database.url, `${before}UPDATE suggestion_key_backfill SET after_id = -1, done = false`);
    await query(database.url, 'CHECKPOINT');
    const from = serverLog === undefined ? undefined : await logLength(serverLog);
    const started = performance.now();
    const migrate = await runMeasured([LEV_API, 'migrate'], env, 600 + births / 100, { stdout: 'stderr' });
    const took = (performance.now() - started) / 1000;
    const [{ after }] = await query<{ after: string }>(
      database.url,
      'SELECT count(*)::text AS after FROM birth_suggestion_key',
    );
    rows.push(
      `| ${what} | ${took.toFixed(1)} s | ${Math.round(births / took).toLocaleString('en-GB')} | ${after} | ` +
        `${migrate.peakMiB?.toFixed(0) ?? '?'} MiB |`,
    );
    if (serverLog !== undefined && from !== undefined) rows.push(...(await statementTimes(serverLog, from)));
    log(`${what}: ${took.toFixed(1)} s`);
  };
  // Every key there already (each insert a conflict), then none (each one written): after migration 20
  // four keys a record in five are there; after migrations 13, 15 and 16 none.
  await timeBackfill('every key there');
  await timeBackfill('the key table emptied', 'TRUNCATE birth_suggestion_key; ');

  console.log(
    `births ${births.toLocaleString('en-GB')} (loaded in ${load.seconds.toFixed(1)} s, ${keys} keys); ` +
      server.description,
  );
  console.log("| `lev-api migrate`'s backfill, with | time | records a second | keys after | migrate's peak RSS |");
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
}

/** The log's length in bytes: where the statements of what follows start. */
const logLength = async (file: string) => (await stat(file)).size;

/** Each kind of statement the log shows after `from`, by its first words: how many, and their time. */
async function statementTimes(file: string, from: number): Promise<string[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of createReadStream(file, { start: from })) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const kinds = new Map<string, { count: number; ms: number }>();
  for (const match of text.matchAll(/duration: ([\d.]+) ms\s+(?:statement|execute [^:]*): (\S+(?: \S+){0,3})/g)) {
    const kind = kinds.get(match[2]) ?? { count: 0, ms: 0 };
    kind.count++;
    kind.ms += Number(match[1]);
    kinds.set(match[2], kind);
  }
  return [...kinds]
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, 4)
    .map(([kind, { count, ms }]) => `|   ${count} × ${kind} | ${(ms / 1000).toFixed(1)} s | | | |`);
}

try {
  await main();
} finally {
  await cleanUp();
}
