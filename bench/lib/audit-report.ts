/** The figures of `npm run bench:audit` as Markdown tables (bench/audit.ts). */
import { geometricMean, median } from './stats.ts';
import type { AuditBenchOptions, BatchCost, Capacity, PhaseCost, ProcessesRow } from './audit-phases.ts';

/** The tables: throughput by process count (and against another build), cost a lookup, batch cost and capacity. */
export function auditTables(
  opts: AuditBenchOptions,
  rows: readonly ProcessesRow[],
  costs: readonly BatchCost[],
  capacity: readonly Capacity[],
): string {
  // Each round's n-process throughput against the same round's one process (of the same build); the figure
  // is their geometric mean.
  const one = opts.processes[0];
  const builds = opts.against ? [opts.levApi, opts.against] : [opts.levApi];
  const label = (build: string) => (opts.against ? `${build}: ` : '');
  const lines = [
    `| processes | audited lookups/s (median of ${opts.rounds}) | against ${one} process (geometric mean, ` +
      `95% interval) | backends waiting on a lock (mean) | on an advisory lock (mean) |`,
    '|---|---|---|---|---|',
  ];
  for (const build of builds) {
    for (const n of opts.processes) {
      const mine = rows.filter((r) => r.build === build && r.processes === n);
      const ratios = mine.map(
        (r) => r.rps / rows.find((o) => o.build === build && o.round === r.round && o.processes === one)!.rps,
      );
      const mean = geometricMean(ratios);
      const interval = mean?.interval ? ` (${mean.interval.low.toFixed(2)}-${mean.interval.high.toFixed(2)})` : '';
      lines.push(
        `| ${label(build)}${n} | ${Math.round(median(mine.map((r) => r.rps)))} ` +
          `| ${mean?.mean.toFixed(2) ?? '?'}${interval} ` +
          `| ${median(mine.map((r) => r.lockWaits.meanWaiting)).toFixed(2)} ` +
          `| ${median(mine.map((r) => r.lockWaits.meanAdvisoryWaiting)).toFixed(2)} |`,
      );
    }
  }
  if (opts.against) {
    // The two builds against each other, round by round, at each process count.
    lines.push(
      '',
      `| processes | ${opts.levApi} against ${opts.against} (geometric mean of the rounds) |`,
      '|---|---|',
    );
    for (const n of opts.processes) {
      const ratios = rows
        .filter((r) => r.build === opts.levApi && r.processes === n)
        .map(
          (r) => r.rps / rows.find((o) => o.build === opts.against && o.round === r.round && o.processes === n)!.rps,
        );
      lines.push(`| ${n} | ${geometricMean(ratios)?.mean.toFixed(2) ?? '?'} |`);
    }
  }
  lines.push(
    '',
    '| processes | CPU ms a lookup: service | database backends | load generator | machine busy | service ' +
      'wake-ups a lookup | entries a batch | commits/s | WAL flushes/s | connections a process |',
    '|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const build of builds) {
    for (const n of opts.processes) {
      const mine = rows.filter((r) => r.build === build && r.processes === n).map((r) => r.cost);
      const mid = (pick: (c: PhaseCost) => number) => median(mine.map(pick));
      lines.push(
        `| ${label(build)}${n} | ${mid((c) => c.serviceMs).toFixed(3)} ` +
          `| ${mid((c) => c.backendsMs).toFixed(3)} | ${mid((c) => c.loadMs).toFixed(3)} ` +
          `| ${(mid((c) => c.machineBusy) * 100).toFixed(0)}% | ${mid((c) => c.wakeups).toFixed(2)} | ` +
          `${mid((c) => c.entriesPerBatch).toFixed(1)} | ${Math.round(mid((c) => c.commitsPerSecond))} ` +
          `| ${Math.round(mid((c) => c.walSyncsPerSecond))} | ${mine[0]?.connections.join(', ')} |`,
      );
    }
  }
  if (costs.length) {
    lines.push(
      '',
      '| entries a batch | CPU µs an entry: writer (node) | its backend | together |',
      '|---|---|---|---|',
    );
    for (const c of costs)
      lines.push(
        `| ${c.size} | ${c.nodeUs.toFixed(1)} | ${c.backendUs.toFixed(1)} | ${(c.nodeUs + c.backendUs).toFixed(1)} |`,
      );
  }
  if (capacity.length) {
    lines.push(
      '',
      '| writers | chained entries/s | plain INSERT entries/s | chained against plain |',
      '|---|---|---|---|',
    );
    for (const writers of [1, 2, 4]) {
      const [c, p] = (['chained', 'plain'] as const).map(
        (kind) => capacity.find((x) => x.writers === writers && x.kind === kind)!.entriesPerSecond,
      );
      lines.push(`| ${writers} | ${Math.round(c)} | ${Math.round(p)} | ${(c / p).toFixed(2)} |`);
    }
  }
  return lines.join('\n');
}
