import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { chartSvg } from '../../bench/lib/scale-chart.ts';
import {
  type ScaleResults,
  type ScaleRow,
  RATE_MEASURE,
  chartPoints,
  chartSpec,
  indexColumns,
  p99Measure,
  report,
  scaleTable,
} from '../../bench/lib/scale-report.ts';

const MIB = 2 ** 20;

/** A row whose figures grow with `births`, each index named by its size in MiB at 100,000 births. */
function row(births: number, overrides: Partial<Record<'lookupRate', number>> = {}): ScaleRow {
  const scale = births / 100_000;
  const figures = (maxRps: number, p99Ms: number) => ({
    maxRps,
    rateRps: overrides.lookupRate ?? 200,
    p50Ms: p99Ms / 4,
    p99Ms,
  });
  return {
    births,
    generate: { seconds: 2 * scale, bytes: 160 * MIB * scale },
    load: {
      seconds: 5 * scale,
      perSecond: 20_000,
      peakRssMiB: 300,
      copySeconds: scale,
      timesCopy: 5,
      increments: {
        latest: { births: 100_000, perSecond: 19_000, ofEmpty: 0.95 },
        allYears: { births: 100_000, perSecond: 18_000, ofEmpty: 0.9 },
      },
    },
    database: {
      bytes: 600 * MIB * scale,
      tables: { birth_registration: 400 * MIB * scale },
      indexes: {
        big_index: 50 * MIB * scale,
        middle_index: 20 * MIB * scale,
        third_index: 10 * MIB * scale,
        fourth_index: 5 * MIB * scale,
        fifth_index: 2 * MIB * scale,
        tiny_index: 8192,
      },
    },
    service: { readySeconds: 1.5, indexBuildSeconds: 3 * scale, rssMiB: 250 + 170 * scale },
    operations: {
      lookup: figures(3000, 4),
      search: figures(2500, 6),
      verify: figures(2400, 7),
      suggest: figures(800, 20 * scale),
    },
    recall: { asked: 1000, found: 958, notAsked: 40 },
    feed: { events: 500_000, seconds: 10, perSecond: 50_000 },
    audit: { entries: 40_000 * scale, verifySeconds: 4 * scale },
  };
}

const results = (rows: ScaleRow[]): ScaleResults => ({
  meta: {
    date: '2026-11-28T16:00:00.000Z',
    command: 'npm run bench:scale -- --sizes 100000,1000000',
    node: 'v20.20.2',
    cpu: 'AMD EPYC × 2',
    duration: 10,
    connections: 20,
    rate: 200,
    seed: 'scale',
    server: 'own cluster (initdb)',
    settings: { server_version: '15.20', shared_buffers: '4GB' },
  },
  rows,
});

test('scaleTable: a row a size, smallest first, the size in the first cell', () => {
  const lines = scaleTable([row(1_000_000), row(100_000)], 200).split('\n');
  assert.equal(lines.length, 4, 'header, rule and two rows');
  const cells = (line: string) =>
    line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
  assert.equal(cells(lines[0])[0], 'births');
  assert.deepEqual([cells(lines[2])[0], cells(lines[3])[0]], ['100,000', '1,000,000']);
  const header = cells(lines[0]);
  const at = (name: string, line: string) => cells(line)[header.indexOf(name)];
  assert.equal(at('load /s', lines[2]), '20,000');
  assert.equal(at('load × COPY', lines[2]), '5.00');
  assert.equal(at('lookup p50/p99 ms at 200/s', lines[2]), '1.0 / 4.0');
  assert.equal(at('suggest p50/p99 ms at 200/s', lines[3]), '50.0 / 200.0');
  assert.equal(at('recall@10', lines[2]), '95.8% of 1,000');
  assert.equal(at('audit verify s (entries)', lines[3]), '40.0 (400,000)');
  // Every row has as many cells as the header.
  for (const line of lines) assert.equal(cells(line).length, header.length);
});

test('scaleTable: a fixed rate the service did not keep up with is marked saturated', () => {
  const table = scaleTable([row(100_000, { lookupRate: 150 })], 200);
  assert.match(table, /1\.0 \/ 4\.0 \(sat\.\)/);
  assert.doesNotMatch(scaleTable([row(100_000, { lookupRate: 196 })], 200), /sat\./);
});

test('indexColumns: the largest indexes of the largest register get columns; the rest are summed', () => {
  const rows = [row(100_000), row(1_000_000)];
  assert.deepEqual(indexColumns(rows), ['big_index', 'middle_index', 'third_index', 'fourth_index']);
  assert.deepEqual(indexColumns(rows, 2), ['big_index', 'middle_index']);
  // Below a mebibyte an index has no column of its own, however few there are.
  assert.deepEqual(indexColumns(rows, 10), ['big_index', 'middle_index', 'third_index', 'fourth_index', 'fifth_index']);
  assert.deepEqual(indexColumns([]), []);
  const cellsOf = (table: string) =>
    table.split('\n').map((line) =>
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  const [header, , first, second] = cellsOf(scaleTable(rows, 200));
  const big = header.indexOf('big_index MiB');
  assert.deepEqual(header.slice(big, big + 5), [
    'big_index MiB',
    'middle_index MiB',
    'third_index MiB',
    'fourth_index MiB',
    'other indexes MiB',
  ]);
  // fifth_index (2 MiB a 100,000) and tiny_index (8 KiB) make up the other indexes.
  assert.deepEqual([first[big], first[big + 4]], ['50', '2']);
  assert.deepEqual([second[big], second[big + 4]], ['500', '20']);
  // Each increment's rate into the full register, with its ratio to the same file into an empty one.
  assert.equal(first[header.indexOf('latest births /s (× empty)')], '19,000 (0.95)');
  assert.equal(first[header.indexOf('all years /s (× empty)')], '18,000 (0.90)');
  // A run's JSON from before the latest births were measured: its one file was of every year.
  const { increments, ...load } = rows[0].load;
  const [, , old] = cellsOf(scaleTable([{ ...rows[0], load: { ...load, increment: increments?.allYears } }], 200));
  assert.equal(old[header.indexOf('latest births /s (× empty)')], '');
  assert.equal(old[header.indexOf('all years /s (× empty)')], '18,000 (0.90)');
});

test(
  'chartPoints: each operation gives its closed-loop rate and its p99 at the fixed rate, unmeasured ' +
    'values left out',
  () => {
    const large = row(1_000_000);
    const unmeasured = { maxRps: NaN, rateRps: 0, p50Ms: NaN, p99Ms: NaN };
    const points = chartPoints(
      [row(100_000), { ...large, operations: { ...large.operations, suggest: unmeasured } }],
      200,
    );
    assert.equal(points.length, 8 + 6);
    assert.deepEqual(
      points.filter((p) => p.births === 100_000 && p.operation === 'suggest'),
      [
        { births: 100_000, operation: 'suggest', measure: RATE_MEASURE, value: 800 },
        { births: 100_000, operation: 'suggest', measure: p99Measure(200), value: 20 },
      ],
    );
  },
);

test('chartSpec: a panel a measure, log scales on both axes, the command in the subtitle', () => {
  const spec = chartSpec(results([row(100_000), row(1_000_000)])) as {
    title: { subtitle: string };
    facet: { row: { field: string } };
    spec: {
      encoding: {
        x: { field: string; scale: { type: string } };
        y: { scale: { type: string } };
        color: { field: string };
      };
    };
    data: { values: unknown[] };
  };
  assert.equal(spec.facet.row.field, 'measure');
  assert.equal(spec.spec.encoding.x.field, 'births');
  assert.equal(spec.spec.encoding.x.scale.type, 'log');
  assert.equal(spec.spec.encoding.y.scale.type, 'log');
  assert.equal(spec.spec.encoding.color.field, 'operation');
  assert.match(spec.title.subtitle, /npm run bench:scale -- --sizes 100000,1000000/);
  assert.equal(spec.data.values.length, 16);
});

test('chartSvg: Vega renders the chart headless, a line an operation', async () => {
  const svg = await chartSvg(results([row(100_000), row(1_000_000), row(10_000_000)]));
  assert.match(svg, /^<svg /);
  for (const name of ['lookup', 'search', 'verify', 'suggest', RATE_MEASURE, p99Measure(200)])
    assert.ok(svg.includes(`>${name}<`), name);
  assert.match(svg, /births in the register \(log scale\)/);
});

test('report: what ran, the command, the settings in force, then the table', () => {
  const text = report(results([row(100_000)]));
  const lines = text.split('\n');
  assert.match(lines[0], /^lev-api scale bench, 2026-11-28T16:00:00.000Z: Node v20.20.2 on AMD EPYC × 2; 10 s a phase/);
  assert.equal(lines[1], '$ npm run bench:scale -- --sizes 100000,1000000');
  assert.equal(lines[2], 'PostgreSQL: own cluster (initdb); server_version=15.20, shared_buffers=4GB');
  assert.match(lines[4], /^\| +births \|/);
  // A run from before rounds were counted had one; a run of three says the median of three is shown.
  assert.match(lines[0], /20 connections closed loop \(1 round, the median shown\)/);
  const three = { ...results([row(100_000)]), meta: { ...results([]).meta, rounds: 3 } };
  assert.match(report(three).split('\n')[0], /\(3 rounds, the median shown\)/);
});

test('docs/performance.md shows each scale run it names as the run made it: its table from its JSON', () => {
  const doc = readFileSync(new URL('../../docs/performance.md', import.meta.url), 'utf8');
  // A run shown is named as `its JSON is ...`; other runs' JSON are cited for a figure or two.
  const shown = [...doc.matchAll(/its JSON is\s+`(bench\/results\/scale-[\w-]+\.json)`/g)].map((match) => match[1]);
  assert.ok(shown.length > 0, 'the doc names no run whose table it shows');
  for (const path of shown) {
    const results = JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')) as ScaleResults;
    assert.ok(
      doc.includes(scaleTable(results.rows, results.meta.rate).trim()),
      `the table of ${path} is not in the doc`,
    );
  }
});
