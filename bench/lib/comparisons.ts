/**
 * What the report says of the phases beside the table: each store against the ceilings, the
 * run's steadiness, and the comparisons between scenarios and between sizes.
 */
import { SCENARIOS } from './options.ts';
import type { Row } from './report.ts';
import { geometricMean, median } from './stats.ts';
import { GENERATED_TYPES } from './workload.ts';

/**
 * Throughput is compared in the closed loop (at a fixed rate the offered rate decides it): a store's
 * to the higher of the ceilings measured just before and just after it, since something else on the
 * machine can only lower a ceiling and so must not flatter a store; a later ceiling's to the first,
 * which shows the drift.
 */
export function compareToCeilings(measured: Row[]) {
  const ceilings = measured.flatMap((row, at) =>
    row.store === 'ceiling' && row.mode === 'max' ? [{ at, rps: row.rps }] : [],
  );
  if (!ceilings.length) return;
  measured.forEach((row, at) => {
    if (row.mode !== 'max') return;
    if (row.store === 'ceiling') return void (row.ratioToCeiling = row.rps / ceilings[0].rps);
    const around = [ceilings.filter((c) => c.at < at).at(-1), ceilings.find((c) => c.at > at)];
    row.ratioToCeiling = row.rps / Math.max(...around.map((c) => c?.rps ?? 0));
  });
}

/** How far apart the ceiling's measurements in one run may be before the run is called unsteady. */
const CEILING_DRIFT = 0.1;

export function ceilingDriftNote(rows: readonly Row[]): string[] {
  const ceilings = rows.filter((row) => row.store === 'ceiling' && row.mode === 'max').map((row) => row.rps);
  if (ceilings.length < 2) return [];
  const [low, high] = [Math.min(...ceilings), Math.max(...ceilings)];
  if (high / low - 1 <= CEILING_DRIFT) return [];
  const text = (rps: number) => Math.round(rps).toLocaleString('en-GB');
  return [
    `NOTE: the ceiling ranged from ${text(low)} to ${text(high)} req/s during the run ` +
      `(${Math.round((high / low - 1) * 100)}% apart): ` +
      "the machine's speed changed. Each store's ratios are to the higher of the ceilings just before and " +
      'after it, yet may be off by as much; ' +
      'run again on a quieter machine.',
  ];
}

/**
 * Phases in which other processes (not the server, its database backends or the load generator) used much
 * of the machine.
 */
export function busyMachineNote(rows: readonly Row[]): string[] {
  const busy = rows.filter((row) => (row.otherCpuPercent ?? 0) > 20);
  if (!busy.length) return [];
  const shares = busy.map((row) => Math.round(row.otherCpuPercent!));
  const phases =
    busy.length <= 3
      ? busy.map((row) => `${row.store} ${row.scenario} ${row.mode}`).join(', ')
      : `${busy.length} of ${rows.length} phases`;
  return [
    `NOTE: other processes ` +
      `used ${
        Math.min(...shares) === Math.max(...shares) ? shares[0] : `${Math.min(...shares)}–` + `${Math.max(...shares)}`
      }% of a core during ${phases} ` +
      '(otherCpuPercent in the JSON): those figures are disturbed; run again on a quiet machine.',
  ];
}

/**
 * With several PostgreSQL sizes: each search's p99 at the fixed rate, and the server's peak memory,
 * on the largest dataset against the smallest.
 */
export function growth(rows: readonly Row[]): string[] {
  const stores = [...new Set(rows.filter((row) => row.store.startsWith('postgres ')).map((row) => row.store))];
  if (stores.length < 2) return [];
  const [small, large] = [stores[0], stores[stores.length - 1]];
  const find = (store: string, scenario: string) =>
    rows.find((row) => row.store === store && row.scenario === scenario && row.mode === 'rate');
  const ratios = SCENARIOS.flatMap((scenario) => {
    const [a, b] = [find(small, scenario), find(large, scenario)];
    return a && b
      ? [
          `${scenario} ${b.latencyMs.p99.toFixed(2)} ÷ ${a.latencyMs.p99.toFixed(2)} ` +
            `= ${(b.latencyMs.p99 / a.latencyMs.p99).toFixed(2)}×`,
        ]
      : [];
  });
  const peak = (store: string) =>
    Math.max(...rows.filter((row) => row.store === store).map((row) => row.server.peakRssMiB ?? 0));
  return [
    '',
    `Growth from ${small.slice('postgres '.length)} to ${large.slice('postgres '.length)} births:`,
    ...(ratios.length ? [`- p99 at the fixed rate: ${ratios.join('; ')}`] : []),
    `- the server's peak RSS over all phases: ${peak(small).toFixed(0)} MiB, then ${peak(large).toFixed(0)} MiB`,
  ];
}

/**
 * Each type's closed-loop verification throughput over its search's, and the server's CPU per
 * request the other way up (search over verification), on each store: verification should not cost
 * more. With several rounds, each round's ratio compares phases run one after the other, and the
 * median of the rounds is given with their range; over all types, the geometric mean of every pair.
 */
export function verificationAgainstSearch(rows: readonly Row[]): string[] {
  const told = (values: number[]) =>
    values.length > 1
      ? `${median(values).toFixed(2)} (${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)})`
      : values[0].toFixed(2);
  const lines = [...new Set(rows.map((row) => row.store))].flatMap((store) => {
    const closed = (scenario: string) =>
      rows.filter((row) => row.store === store && row.scenario === scenario && row.mode === 'max');
    // Each type's search and verification of the same round.
    const pairs = new Map(
      GENERATED_TYPES.map((type) => [
        type,
        closed(`search-${type}`).flatMap((search) => {
          const verify = closed(`verify-${type}`).find((row) => row.round === search.round);
          return verify ? [{ round: search.round, search, verify }] : [];
        }),
      ]),
    );
    const ratios = GENERATED_TYPES.flatMap((type) => {
      const measured = pairs.get(type) ?? [];
      if (!measured.length) return [];
      const cpu = measured
        .map(
          ({ search, verify }) =>
            (search.server.cpuMicrosPerRequest ?? NaN) / (verify.server.cpuMicrosPerRequest ?? NaN),
        )
        .filter(Number.isFinite);
      return [
        `${type} ` +
          `${told(measured.map(({ search, verify }) => verify.rps / search.rps))}` +
          `${cpu.length ? `, CPU ${told(cpu)}` : ''}`,
      ];
    });
    // The store's verification throughput against its search throughput: every pair of every type and round.
    const overall = geometricMean([...pairs.values()].flat().map(({ search, verify }) => verify.rps / search.rps));
    if (ratios.length > 1 && overall) {
      const interval = overall.interval
        ? ` (95% interval ${overall.interval.low.toFixed(2)}–${overall.interval.high.toFixed(2)})`
        : '';
      ratios.push(`all types ${overall.mean.toFixed(2)}${interval} over ${overall.count} pairs`);
    }
    return ratios.length ? [`- ${store}: ${ratios.join('; ')}`] : [];
  });
  const rounds = Math.max(1, ...rows.map((row) => row.round ?? 1));
  return lines.length
    ? [
        '',
        `Verification req/s over the same type's search req/s (closed loop), and CPU: the search's server ` +
          `CPU per request over the ` +
          `verification's${rounds > 1 ? `; the median of ${rounds} rounds (their range)` : ''}:`,
        ...lines,
      ]
    : [];
}

/**
 * Each type's closed-loop close-match throughput over its search's (issue 24 asks for a fifth at
 * least), and the close matches' p99 at the fixed rate, on each store; the median of the rounds.
 */
export function suggestionsAgainstSearch(rows: readonly Row[]): string[] {
  const lines = [...new Set(rows.map((row) => row.store))].flatMap((store) => {
    const of = (scenario: string, mode: 'max' | 'rate') =>
      rows.filter((row) => row.store === store && row.scenario === scenario && row.mode === mode);
    const told = GENERATED_TYPES.flatMap((type) => {
      const searches = of(`search-${type}`, 'max');
      const ratios = of(`suggest-${type}`, 'max').flatMap((suggest) => {
        const search = searches.find((row) => row.round === suggest.round);
        return search ? [suggest.rps / search.rps] : [];
      });
      const fixed = of(`suggest-${type}`, 'rate');
      if (!ratios.length && !fixed.length) return [];
      const p99 = fixed.length
        ? `, p99 ${median(fixed.map((row) => row.latencyMs.p99)).toFixed(1)} ms at ${fixed[0].offered}/s`
        : '';
      return [`${type} ${ratios.length ? median(ratios).toFixed(2) : '-'}${p99}`];
    });
    return told.length ? [`- ${store}: ${told.join('; ')}`] : [];
  });
  return lines.length
    ? [
        '',
        "Close matches' req/s over the same type's search req/s (closed loop), and their p99 at the fixed rate:",
        ...lines,
      ]
    : [];
}
