/**
 * The scale bench's figures (bench/scale.ts): one row a size of register, the Markdown table made
 * of them, and the growth chart's Vega-Lite spec. Pure: the unit tests read it, and
 * `--chart-only` redraws the chart from the JSON a run wrote.
 */
import { markdownTable } from './report.ts';

/** The operations measured over HTTP, in the table's order. */
export const OPERATIONS = ['lookup', 'search', 'verify', 'suggest'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface OperationFigures {
  /** Answers a second, closed loop: the median of the rounds' (`maxRpsRounds`). */
  readonly maxRps: number;
  /** Each closed-loop round's answers a second, in the order run (absent in runs of one round). */
  readonly maxRpsRounds?: readonly number[];
  /** Answers a second at the fixed rate (under it when the service could not keep up). */
  readonly rateRps: number;
  /** Latency at the fixed rate, in milliseconds. */
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** What one size of register measured; null where a phase could not measure it. */
export interface ScaleRow {
  readonly births: number;
  readonly generate: { readonly seconds: number; readonly bytes: number };
  readonly load: {
    readonly seconds: number;
    readonly perSecond: number;
    readonly peakRssMiB: number | null;
    /** The raw COPY of the same file into a one-column table. */
    readonly copySeconds: number;
    /** The load's time over the raw COPY's. */
    readonly timesCopy: number;
    /** `VACUUM (ANALYZE)` of the database after the load, before the service starts. */
    readonly vacuumSeconds?: number;
    /**
     * Two files of new births loaded into this register once measured, each against the same into an
     * empty one: the latest registrations, and births of every year.
     */
    readonly increments?: { readonly latest: ScaleIncrement; readonly allYears: ScaleIncrement };
    /** A run's before both files were measured: one of every year's births. */
    readonly increment?: ScaleIncrement;
  };
  readonly database: {
    readonly bytes: number;
    /** Each table's pg_total_relation_size, and each index's pg_relation_size, by name. */
    readonly tables: Readonly<Record<string, number>>;
    readonly indexes: Readonly<Record<string, number>>;
  };
  readonly service: {
    /** From start until /readiness answered. */
    readonly readySeconds: number;
    /** From start until /metrics said the close-match index was built (SUGGESTION_INDEX=service). */
    readonly indexBuildSeconds: number;
    /** Peak resident memory while serving the measured phases. */
    readonly rssMiB: number | null;
  };
  readonly operations: Readonly<Record<Operation, OperationFigures>>;
  /** Close matches of the error model's queries with limit=10: the registration sought among them. */
  readonly recall: { readonly asked: number; readonly found: number; readonly notAsked: number };
  /** A new reader of /v1/events from the start, for a bounded time. */
  readonly feed: { readonly events: number; readonly seconds: number; readonly perSecond: number };
  readonly audit: { readonly entries: number; readonly verifySeconds: number };
}

export interface ScaleResults {
  readonly meta: {
    readonly date: string;
    /** The command that made the results. */
    readonly command: string;
    readonly node: string;
    readonly cpu: string;
    readonly duration: number;
    /** Closed-loop rounds of each operation (1 when absent). */
    readonly rounds?: number;
    readonly connections: number;
    readonly rate: number;
    readonly seed: string;
    /** Where PostgreSQL ran, and the settings in force. */
    readonly server: string;
    readonly settings: Readonly<Record<string, string>>;
    /** The service's settings given (--set), over SUGGESTION_INDEX=service and its defaults. */
    readonly service?: Readonly<Record<string, string>>;
  };
  readonly rows: readonly ScaleRow[];
}

const MIB = 2 ** 20;
const thousands = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-GB') : '');
const fixed = (value: number | null, digits: number) =>
  value === null || !Number.isFinite(value) ? '' : value.toFixed(digits);

/**
 * The indexes given a column of their own: the `most` largest in the largest register, each of at
 * least `minBytes`. The others are summed in one column, so that a table of a dozen small indexes
 * stays readable while the JSON keeps every one.
 */
export function indexColumns(rows: readonly ScaleRow[], most = 4, minBytes = MIB): string[] {
  const largest = rows.reduce<ScaleRow | undefined>(
    (best, row) => (!best || row.births > best.births ? row : best),
    undefined,
  );
  if (!largest) return [];
  return Object.entries(largest.database.indexes)
    .filter(([, bytes]) => bytes >= minBytes)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, most)
    .map(([name]) => name);
}

/** The percentage of `part` in `whole`, one decimal; empty when nothing was asked. */
export const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)}%` : '');

/** A file of new births loaded into a full register. */
export interface ScaleIncrement {
  readonly births: number;
  /** The median of the rounds' rates into the full register. */
  readonly perSecond: number;
  /** Its rate over the same file's into an empty register: the median of the rounds'. */
  readonly ofEmpty: number;
  /** Each round's file, loaded into an empty register then into the full one (runs before had one, unrecorded). */
  readonly rounds?: readonly ScaleIncrementRound[];
}

/** One file's rates a second into an empty register and, just after, into the full one. */
export interface ScaleIncrementRound {
  readonly intoEmpty: number;
  readonly intoFull: number;
}

const increment = (figures: ScaleIncrement | undefined) =>
  figures ? `${thousands(figures.perSecond)} (${fixed(figures.ofEmpty, 2)})` : '';

/** One row a size, the size first, as Markdown. */
export function scaleTable(rows: readonly ScaleRow[], rate: number): string {
  const indexes = indexColumns(rows);
  const header = [
    'births',
    'generated s',
    'load /s',
    'load × COPY',
    'loader peak MiB',
    'latest births /s (× empty)',
    'all years /s (× empty)',
    'database MiB',
    ...indexes.map((name) => `${name} MiB`),
    'other indexes MiB',
    'service RSS MiB',
    ...OPERATIONS.flatMap((op) => [`${op} /s`, `${op} p50/p99 ms at ${rate}/s`]),
    'recall@10',
    'feed events/s',
    'index build s',
    'audit verify s (entries)',
  ];
  const lines = [...rows]
    .sort((a, b) => a.births - b.births)
    .map((row) => {
      const named = new Set(indexes);
      const other = Object.entries(row.database.indexes).reduce(
        (sum, [name, bytes]) => sum + (named.has(name) ? 0 : bytes),
        0,
      );
      return [
        thousands(row.births),
        fixed(row.generate.seconds, 1),
        thousands(row.load.perSecond),
        fixed(row.load.timesCopy, 2),
        fixed(row.load.peakRssMiB, 0),
        increment(row.load.increments?.latest),
        increment(row.load.increments?.allYears ?? row.load.increment),
        thousands(row.database.bytes / MIB),
        ...indexes.map((name) => (name in row.database.indexes ? thousands(row.database.indexes[name] / MIB) : '')),
        thousands(other / MIB),
        fixed(row.service.rssMiB, 0),
        ...OPERATIONS.flatMap((op) => {
          const figures = row.operations[op];
          // An answered rate under 95% of the offered one is a saturated server: its latency is that of a queue.
          const saturated = figures.rateRps < 0.95 * rate ? ' (sat.)' : '';
          return [thousands(figures.maxRps), `${fixed(figures.p50Ms, 1)} / ${fixed(figures.p99Ms, 1)}${saturated}`];
        }),
        `${percent(row.recall.found, row.recall.asked)} of ${thousands(row.recall.asked)}`,
        thousands(row.feed.perSecond),
        fixed(row.service.indexBuildSeconds, 1),
        `${fixed(row.audit.verifySeconds, 1)} (${thousands(row.audit.entries)})`,
      ];
    });
  const right = new Set(header.map((_, i) => i));
  return markdownTable(header, lines, right);
}

const settingsLine = (settings: Readonly<Record<string, string>>) =>
  Object.entries(settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');

/** The report: what ran, where, with which settings, the table, and what its columns mean. */
export function report(results: ScaleResults): string {
  const { meta } = results;
  const rounds = meta.rounds ?? 1;
  return [
    `lev-api scale bench, ${meta.date}: Node ${meta.node} on ${meta.cpu}; ${meta.duration} s a phase, ` +
      `${meta.connections} connections closed loop (${rounds} round${rounds === 1 ? '' : 's'}, the median ` +
      `shown), fixed rate ${meta.rate}/s; seed ${meta.seed}`,
    `$ ${meta.command}`,
    `PostgreSQL: ${meta.server}; ${settingsLine(meta.settings)}`,
    ...(meta.service ? [`The service: ${settingsLine(meta.service)}`] : []),
    '',
    scaleTable(results.rows, meta.rate),
    '',
    `/s: answers a second, closed loop; p50/p99 at the fixed rate ("sat." when under 95% of it was ` +
      `answered). Requests are made from births sampled`,
    "across the whole register (TABLESAMPLE). load × COPY: the load's time over a raw COPY of the same file. " +
      'latest births, all years: two files of new',
    'births (the latest registrations; born on any day) loaded into the full register, at the end, and each ' +
      "one's rate over the same file's into an empty one (the medians of the rounds). " +
      'recall@10: close matches of the',
    "error model's queries (bench/lib/errors.ts) with the registration among the first ten. index build: " +
      "from the service's start until",
    '/metrics said its close-match index was built (SUGGESTION_INDEX=service). Sizes: pg_database_size, ' +
      'pg_relation_size of each index.',
  ].join('\n');
}

/** The chart's two measures, each a row of panels. */
export const RATE_MEASURE = 'answers a second, closed loop';
export const p99Measure = (rate: number) => `p99 ms at ${rate} a second`;

/** The points of the growth chart: each operation's rate and p99 against the births held. */
export function chartPoints(
  rows: readonly ScaleRow[],
  rate: number,
): { births: number; operation: Operation; measure: string; value: number }[] {
  return rows.flatMap((row) =>
    OPERATIONS.flatMap((operation) => [
      { births: row.births, operation, measure: RATE_MEASURE, value: row.operations[operation].maxRps },
      { births: row.births, operation, measure: p99Measure(rate), value: row.operations[operation].p99Ms },
    ]).filter((point) => Number.isFinite(point.value) && point.value > 0),
  );
}

/** The Vega-Lite spec of the growth chart: a panel a measure, a line an operation, both axes on log scales. */
export function chartSpec(results: ScaleResults): Record<string, unknown> {
  const { rate } = results.meta;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'How lev-api on PostgreSQL grows with the register',
      subtitle: `${results.meta.date.slice(0, 10)}: ${results.meta.command}`,
    },
    data: { values: chartPoints(results.rows, rate) },
    facet: { row: { field: 'measure', type: 'nominal', title: null, sort: [RATE_MEASURE, p99Measure(rate)] } },
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: 520,
      height: 220,
      mark: { type: 'line', point: true },
      encoding: {
        x: {
          field: 'births',
          type: 'quantitative',
          scale: { type: 'log' },
          title: 'births in the register (log scale)',
        },
        y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: null },
        color: { field: 'operation', type: 'nominal', sort: [...OPERATIONS], title: 'operation' },
      },
    },
    config: { background: 'white' },
  };
}
