import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { recordAccesses } from '../audit/activity.ts';
import { defaultHeadPath } from '../audit/file/head-file.ts';
import { verifyAuditFiles } from '../audit/file/verify.ts';
import { createChainWriter } from '../audit/chain-writer.ts';
import { parseCheckpoints } from '../audit/checkpoint.ts';
import { auditEntries, countAuditEntries, verifyAuditChain } from '../audit/verify.ts';
import type { Command } from './command.ts';
import type { Checkpoint } from '../model/audit.ts';
import { AUDIT_READ, MAX_ENTRIES_LIMIT } from '../model/audit.ts';
import { loadConfig } from '../config/index.ts';
import type { RecordDescription } from '../records/define.ts';
import { assertSchemaCurrent } from '../store/migrations.ts';
import { openPostgres } from '../store/pg-driver.ts';
import type { SqlDriver } from '../store/driver.ts';
import { dateOption, parseArguments } from './arguments.ts';
import { LevError, UsageError } from '../errors.ts';

const USAGE = `lev-api audit verify [--file FILE | --checkpoint FILE]
       lev-api audit export [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--out FILE]
       lev-api audit record TYPE ID [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N]

  verify          check the hash chains of the audit table in DATABASE_URL (every writer's, the one
                  before writers, and the signed checkpoints) or, without DATABASE_URL, of the
                  embedded store's audit file AUDIT_FILE and the rotated files beside it (--file FILE:
                  of that file instead); with --checkpoint, also against checkpoints kept elsewhere
                  (one, or a list as /api/v0/audit/checkpoints gives them): nothing they bound may
                  have changed
  export          write the audit table's entries as NDJSON to stdout or --out
  record          who saw a registration: the accesses that disclosed or decided on it, newest first
                  (at most --limit, default 100), as NDJSON

  Each reading of the audit table is recorded in it, as the audit routes' are: an audit-read
  entry, committed before anything read is shown. An audit file is not written to: the service
  is its one writer.`;

const ACTIONS = ['verify', 'export', 'record'] as const;

async function verifyFile(path: string, witnessed: readonly Checkpoint[] = []): Promise<number> {
  let result;
  try {
    result = await verifyAuditFiles(path, defaultHeadPath(path), witnessed);
  } catch (error) {
    console.error(`lev-api audit verify: ${(error as Error).message}`);
    return 1;
  }
  const notes = () => {
    if (result.head === undefined) {
      console.log(
        `note: no head file (${defaultHeadPath(path)}) beside the trail, so entries removed from its end could ` +
          `not be detected`,
      );
    } else if (result.ok) console.log(`the trail holds its last recorded head (${result.head})`);
    if (result.tornTail) {
      console.log(
        `note: the last line of ${path} has no end: a write in progress, or one a crash cut short (never ` +
          `acknowledged); ` +
          'it is not part of the chain, and the service sets it aside when it next starts',
      );
    }
    for (const at of result.uncheckable ?? []) {
      console.log(
        `note: the checkpoint of ${at} given binds only entries in files rotated away, so it could not be checked`,
      );
    }
    for (const file of result.setAside ?? []) {
      console.log(
        `note: a torn last line (a write a crash cut short, never acknowledged) was set aside at start ` +
          `in ${file}; it is kept for investigation, outside the chain`,
      );
    }
  };
  if (result.ok) {
    const start = result.fromGenesis
      ? 'from its first entry'
      : 'from the oldest file kept (older ones were rotated away)';
    const against = result.checkpoints ? `, and against the ${result.checkpoints} checkpoint(s) given` : '';
    console.log(
      `audit trail intact: ${result.entries} entries in ${result.files} file(s), chain verified ${start}${against}`,
    );
    notes();
    return 0;
  }
  notes();
  for (const problem of result.problems) {
    if (problem.kind === 'gap') console.error(`audit trail BROKEN: ${problem.file} is ${problem.reason}`);
    else if (problem.kind === 'cut') console.error(`audit trail BROKEN: ${problem.file} ${problem.reason}`);
    else if (problem.kind === 'checkpoint') console.error(`audit trail BROKEN: ${problem.reason}`);
    else
      console.error(
        `audit trail BROKEN at ${problem.file} line ${problem.line}, after ${problem.good ?? 0} good ` +
          `entries: ${problem.reason}`,
      );
  }
  // Where a gap splits the files, what each side holds, each checked on its own.
  if (
    result.segments.length > 1 ||
    result.problems.some((problem) => problem.kind === 'gap' || problem.kind === 'cut')
  ) {
    for (const segment of result.segments) {
      const files = segment.from === segment.to ? segment.from : `${segment.from} to ${segment.to}`;
      console.error(
        `  ${files}: ${segment.entries} entries, ${segment.ok ? 'chain intact within them' : 'chain broken (above)'}`,
      );
    }
  }
  return 1;
}

async function readCheckpoints(path: string): Promise<Checkpoint[]> {
  let text;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--checkpoint ${path}: ${
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such ' + 'file' : (error as Error).message
      }`,
    );
  }
  try {
    return parseCheckpoints(text);
  } catch (error) {
    throw new UsageError(`--checkpoint ${path}: ${(error as Error).message}`);
  }
}

/**
 * Records a command's reading of the audit table in it, as the audit routes record theirs
 * (`audit-read`, by whoever runs the command), before anything read is shown: when the entry
 * cannot be committed, the command fails and shows nothing.
 */
async function recordReading(
  driver: SqlDriver,
  action: string,
  path: string,
  query: Record<string, unknown>,
  results: number,
): Promise<void> {
  const given = Object.entries(query).filter((pair): pair is [string, string] => typeof pair[1] === 'string');
  try {
    await createChainWriter(driver)([
      {
        username: userInfo().username,
        client: `lev-api audit ${action}`,
        groups: [],
        ...AUDIT_READ,
        path,
        query: new URLSearchParams(given).toString(),
        results,
        requestId: `cli-${process.pid}-${Date.now()}`,
      },
    ]);
  } catch (error) {
    throw new LevError(
      `the reading could not be recorded in the audit trail, so nothing read is shown: ${(error as Error).message}`,
      { code: 'AuditUnavailable', cause: error },
    );
  }
}

async function verify(driver: SqlDriver, witnessed: readonly Checkpoint[]): Promise<number> {
  const result = await verifyAuditChain(driver, { witnessed });
  await recordReading(driver, 'verify', 'lev-api audit verify', {}, result.entries);
  if (result.ok) {
    const against = witnessed.length ? `, and against the ${witnessed.length} checkpoint(s) given` : '';
    console.log(
      `audit trail intact: ${result.entries} entries, chains verified (${result.writers} ` +
        `writer(s), ${result.checkpoints} signed checkpoint(s) stored)${against}`,
    );
    return 0;
  }
  console.error(`audit trail BROKEN after ${Math.max(result.entries - 1, 0)} good entries: ${result.reason}`);
  return 1;
}

function recordArguments(
  positionals: readonly string[],
  descriptions: readonly RecordDescription[],
): { type: string; id: number } {
  const [type, id, ...more] = positionals;
  const types: readonly string[] = descriptions.map((record) => record.name);
  if (type === undefined || id === undefined)
    throw new UsageError(`name the registration: lev-api audit record TYPE ID, TYPE one of ${types.join(', ')}`);
  if (more.length) throw new UsageError(`unexpected argument '${more[0]}'`);
  if (!types.includes(type)) throw new UsageError(`no record type '${type}': the types are ${types.join(', ')}`);
  if (!/^[0-9]{1,15}$/.test(id)) throw new UsageError(`the id must be a number of 1 to 15 digits, not '${id}'`);
  return { type, id: Number(id) };
}

export const auditCommand: Command = {
  summary:
    'Check the audit trail (verify), write its entries as NDJSON (export), or say who saw a registration (record)',
  usage: () => USAGE,
  async run(args, env, descriptions) {
    const [action, ...rest] = args;
    if (!ACTIONS.includes(action as (typeof ACTIONS)[number])) {
      throw new UsageError(
        action === undefined
          ? "name what to do: 'verify', 'export' or 'record'"
          : `expected 'verify', 'export' or 'record', not '${action}'`,
      );
    }
    const { values, positionals } = parseArguments(
      rest,
      action === 'verify'
        ? { file: { type: 'string' }, checkpoint: { type: 'string' } }
        : action === 'export'
          ? { from: { type: 'string' }, to: { type: 'string' }, out: { type: 'string' } }
          : { from: { type: 'string' }, to: { type: 'string' }, limit: { type: 'string' } },
      { positionals: action === 'record' },
    );
    if (values.file !== undefined && values.checkpoint !== undefined) {
      throw new UsageError(
        "give --file or --checkpoint, not both: --file checks any audit file by itself; the service's own " +
          '(AUDIT_FILE) is checked against checkpoints with --checkpoint',
      );
    }
    if (values.file !== undefined) return verifyFile(values.file as string);
    const witnessed = values.checkpoint === undefined ? [] : await readCheckpoints(values.checkpoint as string);
    const record = action === 'record' ? recordArguments(positionals, descriptions) : undefined;
    const from = dateOption('from', values.from as string | undefined);
    const to = dateOption('to', values.to as string | undefined);
    if (from && to && from > to) throw new UsageError(`--from ${from} is after --to ${to}`);
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (
      !Number.isInteger(limit) ||
      limit < 1 ||
      limit > MAX_ENTRIES_LIMIT ||
      !/^[0-9]+$/.test(String(values.limit ?? '1'))
    ) {
      throw new UsageError(`--limit must be a whole number from 1 to ${MAX_ENTRIES_LIMIT}, not '${values.limit}'`);
    }
    const config = loadConfig(env, { serving: false });
    // The embedded store's trail is its file: the service is its one writer, so a reading is not
    // appended to it (it would fork the service's chain); whoever can read the file can read it anyway.
    if (!config.database && action === 'verify' && config.embeddedAudit.file)
      return verifyFile(config.embeddedAudit.file.path, witnessed);
    if (!config.database) {
      throw new UsageError(
        "DATABASE_URL is not set: a server's audit trail is in its database (the embedded store's audit file is " +
          'checked with --file)',
      );
    }
    const driver = openPostgres(config.database);
    try {
      await assertSchemaCurrent(driver, descriptions);
      if (action === 'verify') return await verify(driver, witnessed);
      if (record) {
        const page = await recordAccesses(driver, {
          ...record,
          from: from ?? '1970-01-01',
          to: to ?? new Date().toISOString().slice(0, 10),
          limit,
        });
        await recordReading(
          driver,
          'record',
          `/api/v0/audit/records/${record.type}/${record.id}`,
          { from, to, limit: values.limit },
          page.entries.length,
        );
        for (const entry of page.entries) console.log(JSON.stringify(entry));
        console.error(
          `${page.entries.length} access(es) to ${record.type} ${record.id}${
            page.truncated ? ` (more matched: ` + `raise --limit or narrow the days)` : ''
          }`,
        );
        return 0;
      }
      // One snapshot for the count and the entries, so the reading recorded names exactly what is written out.
      const count = await driver.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const count = await countAuditEntries(tx, { from, to });
        await recordReading(driver, 'export', 'lev-api audit export', { from, to }, count);
        const out = values.out ? createWriteStream(values.out as string) : process.stdout;
        for await (const entry of auditEntries(tx, { from, to })) {
          if (!out.write(`${JSON.stringify(entry)}\n`)) await once(out, 'drain');
        }
        if (values.out) await new Promise((resolve) => (out as ReturnType<typeof createWriteStream>).end(resolve));
        return count;
      });
      console.error(`exported ${count} audit entries`);
      return 0;
    } finally {
      await driver.close();
    }
  },
};
