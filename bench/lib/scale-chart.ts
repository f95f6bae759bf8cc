/**
 * The growth chart drawn as SVG: the spec of scale-report.ts compiled by Vega-Lite and rendered
 * headless by Vega (no canvas: text is measured by Vega's estimate, so nothing native is needed).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as vega from 'vega';
import { type TopLevelSpec, compile } from 'vega-lite';
import { type ScaleResults, chartSpec } from './scale-report.ts';

/** The chart of `results` as an SVG document. */
export async function chartSvg(results: ScaleResults): Promise<string> {
  const { spec } = compile(chartSpec(results) as unknown as TopLevelSpec);
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Writes the chart of `results` to `path`, making its folder. */
export async function writeChart(results: ScaleResults, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${await chartSvg(results)}\n`);
}
