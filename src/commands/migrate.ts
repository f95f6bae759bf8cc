import type { Command } from './command.ts';
import { loadConfig } from '../config/index.ts';
import { latestVersion, loadMigrations, migrate } from '../store/migrations.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { parseArguments } from './arguments.ts';
import { UsageError } from '../errors.ts';

export const migrateCommand: Command = {
  summary: 'Apply pending schema migrations to DATABASE_URL (idempotent)',
  usage: () => 'DATABASE_URL=postgres://... lev-api migrate',
  async run(args, env) {
    parseArguments(args, {});
    const config = loadConfig(env, { serving: false });
    if (!config.database) throw new UsageError('DATABASE_URL is not set: the embedded store migrates itself at start');
    const migrations = await loadMigrations();
    // Not the requests' bound (STATEMENT_TIMEOUT_MS): a migration that rewrites a table of millions, or a batch
    // of the keys' backfill and its closing vacuum, takes as long as the register makes it; a migration cut
    // short applies nothing, and a backfill stopped would stop every run of migrate at the same place.
    const driver = openPostgres({ ...config.database, statementTimeoutMs: 0 });
    try {
      const applied = await migrate(
        driver,
        {
          onProgress: ({ type, records, done }) => {
            if (done ? records > 0 : records % 100_000 === 0)
              console.log(`close-match keys: ${records} ${type} records${done ? ', done' : ''}`);
          },
        },
        migrations,
      );
      for (const migration of applied) console.log(`applied ${migration.version}: ${migration.name}`);
      console.log(
        applied.length
          ? `schema is at version ${latestVersion(migrations)}`
          : `schema already at version ${latestVersion(migrations)}; nothing to do`,
      );
      return 0;
    } finally {
      await driver.close();
    }
  },
};
