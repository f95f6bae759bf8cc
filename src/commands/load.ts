import { resolve } from 'node:path';
import type { Command } from './command.ts';
import { loadConfig } from '../config/index.ts';
import { LOAD_HEAP_MB, loadInWorker } from '../load/in-worker.ts';
import { DEFAULT_BATCH_SIZE, LoadError, defaultRejectsPath, fileSources, summary } from '../load/loader.ts';
import { progressReporter } from '../load/progress.ts';
import { assertSchemaCurrent } from '../store/migrations.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { parseArguments } from './arguments.ts';
import { UsageError } from '../errors.ts';
import { activeTraceParent, inTrace } from '../tracing/spans.ts';

const MAX_BATCH = 100_000;
/** A batch of thousands of records may take longer than a request is allowed to. */
const MIN_STATEMENT_TIMEOUT_MS = 600_000;

export const loadCommand: Command = {
  summary: 'Bulk load records (JSON arrays or NDJSON) into DATABASE_URL, each file in one transaction',
  usage: (descriptions) =>
    `DATABASE_URL=postgres://... lev-api load --type ${descriptions.map((d) => d.name).join('|')} ` +
    `[--skip-invalid] [--rejects FILE] [--batch N] FILE...

  FILE               a JSON array or NDJSON file of v1 records or of the existing service's rows; - reads stdin
  --type TYPE        the record type every file holds
  --skip-invalid     load the valid records and write each invalid one, with its reason, to the rejects file;
                     by default the first invalid record stops the load and nothing of its file is applied
  --rejects FILE     where --skip-invalid writes rejected records (NDJSON); default <first FILE>.rejects.ndjson
  --batch N          records per batch written (default ${DEFAULT_BATCH_SIZE})

Records are upserted by id: loading a file again changes nothing. Progress goes to stderr,
the summary to stdout. Exit code 0 when every file loaded, 1 when one could not be, 2 for a usage mistake.`,

  async run(args, env, descriptions) {
    const { values, positionals: files } = parseArguments(
      args,
      {
        type: { type: 'string' },
        'skip-invalid': { type: 'boolean', default: false },
        rejects: { type: 'string' },
        batch: { type: 'string' },
      },
      { positionals: true },
    );
    const types = descriptions.map((d) => d.name);
    if (!values.type) throw new UsageError(`--type is required (${types.join(', ')})`);
    if (!types.includes(values.type))
      throw new UsageError(`--type must be one of ${types.join(', ')}, not '${values.type}'`);
    if (files.length === 0) throw new UsageError('name at least one FILE to load (- for stdin)');
    if (files.filter((file) => file === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
    if (values.rejects !== undefined && !values['skip-invalid']) throw new UsageError('--rejects needs --skip-invalid');
    const batchSize = values.batch === undefined ? DEFAULT_BATCH_SIZE : Number(values.batch);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) {
      throw new UsageError(`--batch must be a whole number from 1 to ${MAX_BATCH}, not '${values.batch}'`);
    }

    const config = loadConfig(env, { serving: false });
    if (!config.database) {
      throw new UsageError(
        'DATABASE_URL is not set: load writes to a PostgreSQL server (the embedded store is filled from LEV_DATA ' +
          'at start)',
      );
    }
    const database = {
      ...config.database,
      // One connection writes; the other keeps the ids the load has given (src/store/postgres-load-ids.ts).
      poolSize: 2,
      statementTimeoutMs: Math.max(config.database.statementTimeoutMs, MIN_STATEMENT_TIMEOUT_MS),
    };
    const driver = openPostgres(database);
    const progress = progressReporter(process.stderr);
    try {
      await assertSchemaCurrent(driver, descriptions);
      const rejectsPath = values['skip-invalid'] ? (values.rejects ?? defaultRejectsPath(files)) : undefined;
      if (rejectsPath && files.some((file) => file !== '-' && resolve(file) === resolve(rejectsPath))) {
        throw new UsageError(`${rejectsPath}: the rejects file cannot be one of the files to load`);
      }
      // Every file must be there before anything is loaded.
      await fileSources(files);
      try {
        // Traced, the load is a span whose context its events keep, so that their delivery continues it.
        const type = values.type;
        const result = await inTrace(undefined, 'load', { 'lev.record.type': type }, () =>
          loadInWorker(
            {
              database,
              type,
              files,
              options: {
                skipInvalid: values['skip-invalid'],
                rejectsPath,
                batchSize,
                traceParent: activeTraceParent(),
              },
            },
            LOAD_HEAP_MB,
            (p) => progress.update(p),
          ),
        );
        progress.done();
        console.log(summary(result));
        if (result.rejected) console.log(`rejected records are in ${result.rejectsPath}`);
        return 0;
      } catch (error) {
        progress.done();
        if (!(error instanceof LoadError)) throw error;
        console.error(error.message);
        console.error(`lev-api load: stopped; nothing from ${error.file} was applied`);
        if (files.length > 1) console.log(`loaded before it: ${summary(error.committed)}`);
        if (error.committed.rejected) console.log(`rejected records are in ${error.committed.rejectsPath}`);
        return 1;
      }
    } finally {
      await driver.close();
    }
  },
};
