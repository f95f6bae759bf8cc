import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { auditEntries, verifyAuditChain } from '../audit/verify.ts';
import type { Command } from '../cli.ts';
import { loadConfig } from '../config.ts';
import { isIsoDate } from '../records/dates.ts';
import { assertSchemaCurrent } from '../store/migrations.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { UsageError } from './usage-error.ts';

const USAGE = `lev-api audit verify
       lev-api audit export [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out FILE]`;

export const auditCommand: Command = {
  summary: "Check the audit trail's hash chain (verify) or write its entries as NDJSON (export)",
  usage: USAGE,
  async run(args, env) {
    const [action, ...rest] = args;
    const { values } = parseArgs({
      args: rest,
      options: { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } },
    });
    for (const key of ['from', 'to'] as const) {
      if (values[key] !== undefined && !isIsoDate(values[key])) throw new UsageError(`--${key} must be a date written YYYY-MM-DD`);
    }
    if (action !== 'verify' && action !== 'export') throw new UsageError(`expected 'verify' or 'export'\nUsage: ${USAGE}`);
    const config = loadConfig(env, { serving: false });
    if (!config.database) throw new UsageError('DATABASE_URL is not set: the audit trail lives in the PostgreSQL database');
    const driver = openPostgres(config.database);
    try {
      await assertSchemaCurrent(driver);
      if (action === 'verify') {
        const result = await verifyAuditChain(driver);
        if (result.ok) {
          console.log(`audit trail intact: ${result.entries} entries, chain verified`);
          return 0;
        }
        console.error(`audit trail BROKEN after ${result.entries - 1} good entries: ${result.reason}`);
        return 1;
      }
      const out = values.out ? createWriteStream(values.out) : process.stdout;
      let count = 0;
      for await (const entry of auditEntries(driver, { from: values.from, to: values.to })) {
        if (!out.write(`${JSON.stringify(entry)}\n`)) await once(out, 'drain');
        count++;
      }
      if (values.out) await new Promise((resolve) => (out as ReturnType<typeof createWriteStream>).end(resolve));
      console.error(`exported ${count} audit entries`);
      return 0;
    } finally {
      await driver.close();
    }
  },
};
