/**
 * The figures of a run: one row per scenario, printed as a Markdown table and
 * written as JSON with the same numbers.
 */
import type { DriveResult } from './drive.ts';

export interface Row {
  /** `ceiling`, `embedded` or `postgres` (`postgres 1,000,000` when several sizes are measured). */
  readonly store: string;
  readonly scenario: string;
  /** Which pass over the scenarios, with --rounds above 1. */
  readonly round?: number;
  readonly mode: 'max' | 'rate';
  /** Offered requests a second (rate mode). */
  readonly offered: number | null;
  readonly connections: number;
  readonly seconds: number;
  readonly responses: number;
  readonly rps: number;
  /** rps over the ceiling's rps in the same mode. */
  ratioToCeiling: number | null;
  /** Rate mode: the server answered less than 95% of the offered rate. */
  readonly saturated: boolean;
  readonly latencyMs: DriveResult['latencyMs'];
  readonly errors: number;
  readonly timeouts: number;
  readonly statuses: Readonly<Record<string, number>>;
  /** Answers that were neither 2xx nor 404. */
  readonly otherNon2xx: number;
  /** Share of answers that were 404. */
  readonly notFoundShare: number;
  readonly server: {
    readonly pid: number;
    readonly cpuSeconds: number | null;
    readonly cpuMicrosPerRequest: number | null;
    /** Of one core. */
    readonly cpuPercent: number | null;
    /** Peak resident memory during the phase. */
    readonly peakRssMiB: number | null;
    readonly rssAfterMiB: number | null;
  };
  /** The database backends serving the server (PostgreSQL on this machine only): CPU, per request and of one core. */
  readonly database: {
    readonly cpuSeconds: number;
    readonly cpuMicrosPerRequest: number | null;
    readonly cpuPercent: number;
  } | null;
  /** The whole machine's CPU use during the phase, of all cores. */
  readonly machineCpuPercent: number | null;
  /** The load generator's (this process's) CPU, of one core. */
  readonly generatorCpuPercent: number;
  /** CPU of every other process (neither the server, its database backends nor the generator), of one core. */
  otherCpuPercent: number | null;
}

const fixed = (value: number | null | undefined, digits: number) =>
  value === null || value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits);
const thousands = (value: number) => Math.round(value).toLocaleString('en-GB');

export function table(rows: readonly Row[]): string {
  const header = [
    'store',
    'scenario',
    'load',
    'req/s',
    '× ceiling',
    'p50 ms',
    'p99 ms',
    'p99.9 ms',
    'errors',
    'non-2xx non-404',
    '404s',
    'CPU µs/req',
    'CPU',
    'peak RSS MiB',
    'DB CPU µs/req',
  ];
  const right = new Set([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  const lines = rows.map((row) => [
    row.store,
    row.round ? `${row.scenario} (${row.round})` : row.scenario,
    row.mode === 'max'
      ? `max, ${row.connections} conn`
      : `${thousands(row.offered!)}/s${row.saturated ? ' (sat.)' : ''}`,
    thousands(row.rps),
    fixed(row.ratioToCeiling, 2),
    fixed(row.latencyMs.p50, 2),
    fixed(row.latencyMs.p99, 2),
    fixed(row.latencyMs.p99_9, 2),
    String(row.errors),
    String(row.otherNon2xx),
    `${Math.round(row.notFoundShare * 100)}%`,
    fixed(row.server.cpuMicrosPerRequest, 0),
    row.server.cpuPercent === null ? '' : `${Math.round(row.server.cpuPercent)}%`,
    fixed(row.server.peakRssMiB, 0),
    fixed(row.database?.cpuMicrosPerRequest, 0),
  ]);
  return markdownTable(header, lines, right);
}

/** A Markdown table with its columns padded to one width, those in `right` aligned right. */
export function markdownTable(
  header: readonly string[],
  lines: readonly (readonly string[])[],
  right: ReadonlySet<number>,
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
  const format = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (right.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (right.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [format(header), rule, ...lines.map(format)].join('\n');
}
