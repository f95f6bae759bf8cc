/**
 * `npm run bench`'s options: read from its arguments and checked, a usage error naming the bad one.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { configReference } from '../../src/config/index.ts';
import { tracingConfigReference } from '../../src/config/tracing.ts';
import { AUDIT_WARMUP_S } from './audit-phases.ts';
import { GENERATED_TYPES, WALLET_FORMATS, type WalletFormat } from './workload.ts';

export const USAGE =
  `npm run bench -- [options]

  --duration S           seconds of load per phase (default 10)
  --rounds N             run the scenarios N times over, every other time in reverse order (default 1): drift
                         in the machine's speed then falls on every scenario alike, and comparisons take the
                         median of the rounds
  --connections N        connections, closed loop and fixed rate alike (default 20)
  --rate R|P%            offered requests a second in the fixed-rate phases (default 2000), or a share
                         of the same scenario's closed-loop throughput (e.g. 50%)
  --warmup S             seconds of mixed load before each server is measured (default 3; 0 for none)
  --embedded-births N    births generated for the embedded store (default 50000)
  --embedded-others N    deaths, marriages and partnerships each, embedded store (default 10000)
  --births N[,N...]      births loaded into PostgreSQL (default 1000000); several sizes are each loaded
                         into a schema of their own and measured in turn, and the run ends with how
                         search latency and memory grew with the size (e.g. --births 100000,10000000)
  --others N[,N...]      deaths, marriages and partnerships each, PostgreSQL (default 200000): one
                         value for every size, or one per size
  --seed S               seed of the generated records and of the request mix (default bench)
  --stores LIST          embedded,postgres (default: embedded, and postgres when DATABASE_URL is set)
  --only LIST            scenarios to run, by name or prefix: lookup, credential, status-list, offer, ` +
  `pick-up, search, search-birth,
                         verify, verify-birth, suggest, suggest-birth, ..., events (default all)
  --wallet-format F      the format the offer and pick-up phases offer: dc+sd-jwt (default), mso_mdoc or jwt_vc_json
  --events-records N     births the events phase loads into PostgreSQL, in ten files (ten commits) while readers
                         wait (default 100000)
  --events-readers N     readers waiting with wait=30 in the events phase (default 20)
  --modes LIST           max,rate (default both)
  --json FILE            also write the figures as JSON
  --audit                after the stores, the audit phase on PostgreSQL (bench/audit.ts, also
                         npm run bench:audit): 1, 2 and 4 processes sharing --connections, at least 3
                         alternating rounds, lock waits sampled, and the trail's capacity; each
                         phase after --audit-warmup seconds (default 30)
  --audit-warmup S       seconds of load before each audit phase is measured: its service processes
                         start afresh, and each compiles its code on its share of the requests
  --keep                 keep the PostgreSQL schemas and the generated files; a kept schema is named by
                         its sizes and seed (bench_keep_<births>_<others>_<seed>), and a later run with
                         --keep and the same sizes and seed measures it again instead of loading it
  --set NAME=VALUE       a setting of the service measured (repeatable), e.g. --set DATABASE_POOL_SIZE=20;
                         not those the benchmark gives it (HOST, PORT, AUTH_MODE, DATABASE_URL,
                         DATABASE_SCHEMA, LEV_DATA)
  --cpu-prof DIR         run the service under node --cpu-prof, writing the profile and phases.json to DIR
                         (summarise with: node --import tsx bench/profile-summary.ts DIR)

PostgreSQL: DATABASE_URL names the server; the records go into a new schema, dropped at the end
(unless --keep).`;

export class UsageError extends Error {}

export function options(args: readonly string[]) {
  const { values } = parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: false,
    options: {
      duration: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '1' },
      connections: { type: 'string', default: '20' },
      rate: { type: 'string', default: '2000' },
      warmup: { type: 'string', default: '3' },
      'embedded-births': { type: 'string', default: '50000' },
      'embedded-others': { type: 'string', default: '10000' },
      births: { type: 'string', default: '1000000' },
      others: { type: 'string', default: '200000' },
      seed: { type: 'string', default: 'bench' },
      stores: { type: 'string' },
      only: { type: 'string' },
      modes: { type: 'string', default: 'max,rate' },
      json: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'events-records': { type: 'string', default: '100000' },
      'events-readers': { type: 'string', default: '20' },
      'wallet-format': { type: 'string', default: 'dc+sd-jwt' },
      audit: { type: 'boolean', default: false },
      'audit-warmup': { type: 'string', default: String(AUDIT_WARMUP_S) },
      'cpu-prof': { type: 'string' },
      set: { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const whole = (name: keyof typeof values, min: number, max: number) => {
    const text = values[name] as string;
    const value = /^\d+$/.test(text) ? Number(text) : NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max)
      throw new UsageError(`--${name} must be a whole number from ${min} to ${max} (got '${text}')`);
    return value;
  };
  const list = (text: string | undefined) =>
    text
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const stores = list(values.stores) ?? (databaseUrl ? ['embedded', 'postgres'] : ['embedded']);
  for (const store of stores)
    if (store !== 'embedded' && store !== 'postgres')
      throw new UsageError(`--stores takes embedded and postgres, not '${store}'`);
  if (stores.includes('postgres') && !databaseUrl) throw new UsageError('--stores postgres needs DATABASE_URL');
  if (values.audit && !databaseUrl)
    throw new UsageError('--audit measures the audit trail on PostgreSQL: it needs DATABASE_URL');
  const modes = list(values.modes) ?? [];
  for (const mode of modes)
    if (mode !== 'max' && mode !== 'rate') throw new UsageError(`--modes takes max and rate, not '${mode}'`);
  const only = list(values.only);
  for (const name of only ?? []) {
    if (name !== 'events' && !SCENARIOS.some((s) => s.startsWith(name)))
      throw new UsageError(`--only: no scenario is named '${name}' (${SCENARIOS.join(', ')})`);
  }
  const walletFormat = values['wallet-format'] as WalletFormat;
  if (!WALLET_FORMATS.includes(walletFormat))
    throw new UsageError(`--wallet-format takes ${WALLET_FORMATS.join(', ')}, not '${walletFormat}'`);
  return {
    help: values.help,
    settings: serviceSettings(values.set),
    duration: whole('duration', 1, 600),
    rounds: whole('rounds', 1, 100),
    connections: whole('connections', 1, 1000),
    rate: rateOption(values.rate, modes),
    warmup: whole('warmup', 0, 600),
    embedded: { births: whole('embedded-births', 1, 10_000_000), others: whole('embedded-others', 1, 10_000_000) },
    postgres: postgresSizes(values.births, values.others),
    seed: values.seed,
    stores: stores as ('embedded' | 'postgres')[],
    scenarios: SCENARIOS.filter((s) => !only || only.some((name) => name !== 'events' && s.startsWith(name))),
    events:
      !only || only.includes('events')
        ? { records: whole('events-records', 10, 10_000_000), readers: whole('events-readers', 1, 1000) }
        : undefined,
    modes: modes as ('max' | 'rate')[],
    walletFormat,
    json: values.json,
    keep: values.keep,
    audit: values.audit,
    auditWarmup: whole('audit-warmup', 0, 600),
    cpuProf: values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']),
    databaseUrl,
  };
}

/** The benchmark's own settings of the service, which `--set` may not change. */
const DECIDED = ['HOST', 'PORT', 'AUTH_MODE', 'DATABASE_URL', 'DATABASE_SCHEMA', 'LEV_DATA'];

/** `--set NAME=VALUE`: settings of the service, checked by name (the service checks their values as it starts). */
export function serviceSettings(items: readonly string[]): Record<string, string> {
  const known = new Set([...configReference(), ...tracingConfigReference()].map(({ name }) => name));
  const settings: Record<string, string> = {};
  for (const item of items) {
    const at = item.indexOf('=');
    const name = item.slice(0, Math.max(at, 0));
    if (at < 1 || !known.has(name))
      throw new UsageError(`--set takes NAME=VALUE with NAME a setting of the service (got '${item}')`);
    if (DECIDED.includes(name)) throw new UsageError(`--set: the benchmark decides ${name} itself`);
    settings[name] = item.slice(at + 1);
  }
  return settings;
}

/** `--births` and `--others`: the PostgreSQL datasets, smallest first. */
function postgresSizes(births: string, others: string): { births: number; others: number }[] {
  const numbers = (name: string, text: string) =>
    text.split(',').map((item) => {
      const value = /^\d+$/.test(item.trim()) ? Number(item.trim()) : NaN;
      if (!Number.isSafeInteger(value) || value < 1 || value > 100_000_000) {
        throw new UsageError(`--${name} takes whole numbers from 1 to 100000000, separated by commas (got '${text}')`);
      }
      return value;
    });
  const b = numbers('births', births);
  const o = numbers('others', others);
  if (o.length !== 1 && o.length !== b.length)
    throw new UsageError(`--others takes one size, or one for each of --births' ${b.length}`);
  const sizes = b.map((value, i) => ({ births: value, others: o.length === 1 ? o[0] : o[i] }));
  return sizes.sort((x, y) => x.births - y.births || x.others - y.others);
}

/** `--rate`: requests a second, or a percentage of the closed-loop throughput. */
function rateOption(text: string, modes: string[]): { perSecond: number } | { percent: number } {
  const match = /^(\d+)(%?)$/.exec(text);
  const value = match ? Number(match[1]) : NaN;
  if (match?.[2]) {
    if (!(value >= 1 && value <= 100))
      throw new UsageError(`--rate as a share must be from 1% to 100% (got '${text}')`);
    if (modes.includes('rate') && !modes.includes('max'))
      throw new UsageError('--rate as a share needs the max mode too (--modes max,rate)');
    return { percent: value };
  }
  if (!(value >= 1 && value <= 1_000_000))
    throw new UsageError(`--rate must be a whole number from 1 to 1000000, or a share such as 50% (got '${text}')`);
  return { perSecond: value };
}

export const rateText = (rate: Options['rate']) =>
  'percent' in rate ? `${rate.percent}% of the closed-loop throughput` : `${rate.perSecond}/s`;

// Each type's verification and close matches right after its search: they are compared with it, and
// phases side by side see the same machine when its speed drifts over a run.
// Issuance right after the lookup it is compared with; the status list after issuance has made list 1;
// a wallet's offers and pick-ups after the credentials issued over the API.
export const SCENARIOS = [
  'lookup',
  'credential',
  'status-list',
  'offer',
  'pick-up',
  ...GENERATED_TYPES.flatMap((type) => [`search-${type}`, `verify-${type}`, `suggest-${type}`]),
];
export type Options = ReturnType<typeof options>;
