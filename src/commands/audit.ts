import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { defaultHeadPath, verifyAuditFiles } from '../audit/audit-file.ts';
import { auditEntries, verifyAuditChain } from '../audit/verify.ts';
import type { Command } from '../types/command.ts';
import { loadConfig } from '../config.ts';
import { records } from '../records/index.ts';
import { assertSchemaCurrent } from '../store/migrations.ts';
import { openPostgres } from '../store/pg-driver.ts';
import { dateOption, parseArguments } from './arguments.ts';
import { UsageError } from '../errors.ts';

const USAGE = `lev-api audit verify [--file FILE]
       lev-api audit export [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out FILE]

  verify          check the hash chain of the audit table in DATABASE_URL or, with --file, of the
                  embedded store's audit file (AUDIT_FILE) and the rotated files beside it
  export          write the audit table's entries as NDJSON to stdout or --out`;

async function verifyFile(path: string): Promise<number> {
  let result;
  try {
    result = await verifyAuditFiles(path);
  } catch (error) {
    console.error(`lev-api audit verify: ${(error as Error).message}`);
    return 1;
  }
  const notes = () => {
    if (result.head === undefined) {
      console.log(`note: no head file (${defaultHeadPath(path)}) beside the trail, so entries removed from its end could not be detected`);
    } else if (result.ok) console.log(`the trail holds its last recorded head (${result.head})`);
    if (result.tornTail) {
      console.log(
        `note: the last line of ${path} has no end: a write in progress, or one a crash cut short (never acknowledged); ` +
          'it is not part of the chain, and the service sets it aside when it next starts',
      );
    }
    for (const file of result.setAside ?? []) {
      console.log(`note: a torn last line (a write a crash cut short, never acknowledged) was set aside at start in ${file}; it is kept for investigation, outside the chain`);
    }
  };
  if (result.ok) {
    const start = result.fromGenesis ? 'from its first entry' : 'from the oldest file kept (older ones were rotated away)';
    console.log(`audit trail intact: ${result.entries} entries in ${result.files} file(s), chain verified ${start}`);
    notes();
    return 0;
  }
  notes();
  for (const problem of result.problems) {
    if (problem.kind === 'gap') console.error(`audit trail BROKEN: ${problem.file} is ${problem.reason}`);
    else if (problem.kind === 'cut') console.error(`audit trail BROKEN: ${problem.file} ${problem.reason}`);
    else console.error(`audit trail BROKEN at ${problem.file} line ${problem.line}, after ${problem.entries - 1} good entries: ${problem.reason}`);
  }
  // Where a gap splits the files, what each side holds, each checked on its own.
  if (result.segments.length > 1 || result.problems.some((problem) => problem.kind !== 'chain')) {
    for (const segment of result.segments) {
      const files = segment.from === segment.to ? segment.from : `${segment.from} to ${segment.to}`;
      console.error(`  ${files}: ${segment.entries} entries, ${segment.ok ? 'chain intact within them' : 'chain broken (above)'}`);
    }
  }
  return 1;
}

export const auditCommand: Command = {
  summary: "Check the audit trail's hash chain (verify) or write its entries as NDJSON (export)",
  usage: USAGE,
  async run(args, env) {
    const [action, ...rest] = args;
    if (action !== 'verify' && action !== 'export') {
      throw new UsageError(action === undefined ? "name what to do: 'verify' or 'export'" : `expected 'verify' or 'export', not '${action}'`);
    }
    const { values } = parseArguments(
      rest,
      action === 'verify' ? { file: { type: 'string' } } : { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } },
    );
    if (values.file !== undefined) return verifyFile(values.file as string);
    const from = dateOption('from', values.from as string | undefined);
    const to = dateOption('to', values.to as string | undefined);
    if (from && to && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
    const config = loadConfig(env, { serving: false });
    if (!config.database) {
      throw new UsageError("DATABASE_URL is not set: a server's audit trail is in its database (the embedded store's audit file is checked with --file)");
    }
    const driver = openPostgres(config.database);
    try {
      await assertSchemaCurrent(driver, records);
      if (action === 'verify') {
        const result = await verifyAuditChain(driver);
        if (result.ok) {
          console.log(`audit trail intact: ${result.entries} entries, chain verified`);
          return 0;
        }
        console.error(`audit trail BROKEN after ${result.entries - 1} good entries: ${result.reason}`);
        return 1;
      }
      const out = values.out ? createWriteStream(values.out as string) : process.stdout;
      let count = 0;
      for await (const entry of auditEntries(driver, { from, to })) {
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
