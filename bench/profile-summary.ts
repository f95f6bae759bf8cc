/**
 * Summarises a CPU profile of the service taken by `npm run bench -- --cpu-prof DIR`:
 * where the samples of one benchmark phase were spent, by function (self
 * time) and by package or source area.
 *
 *   node --import tsx bench/profile-summary.ts DIR [--phase 'embedded lookup max'] [--thread N] [--top 25]
 *
 * DIR holds the .cpuprofile files node wrote and the phases.json the benchmark
 * wrote (each phase's server pid and its start and end on CLOCK_MONOTONIC, the
 * clock of the profile's timestamps). Without --phase, the first measured
 * phase (not the warm-up) of the profiled server is summarised, on its main
 * thread unless --thread names another (the embedded store's database thread
 * is the highest number). A .cpuprofile file may also be given instead of
 * DIR: then every sample is counted.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import type { PhaseWindow } from './lib/proc.ts';
import { ROOT } from './lib/processes.ts';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}
interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    phase: { type: 'string' },
    thread: { type: 'string', default: '0' },
    top: { type: 'string', default: '25' },
  },
});
const target = positionals[0];
if (!target) {
  console.error(
    "Usage: node --import tsx bench/profile-summary.ts DIR|FILE.cpuprofile [--phase 'embedded lookup max'] [--top N]",
  );
  process.exit(2);
}
const top = Math.max(1, Math.min(500, Number(values.top) || 25));

let file: string;
let window: PhaseWindow | undefined;
if (statSync(target).isDirectory()) {
  const phases = JSON.parse(readFileSync(join(target, 'phases.json'), 'utf8')) as PhaseWindow[];
  const label = (p: PhaseWindow) => `${p.store} ${p.scenario} ${p.mode}`;
  // Node names them CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile; thread 0 is the main thread
  // (the others are worker threads: the embedded database's, or tsx's module loader).
  const threadOf = (pid: number) =>
    readdirSync(target).find((name) => {
      const parts = name.split('.');
      return name.endsWith('.cpuprofile') && parts[3] === String(pid) && parts[4] === values.thread;
    });
  const profiled = (p: PhaseWindow) => threadOf(p.pid) !== undefined;
  window = values.phase
    ? phases.find((p) => label(p) === values.phase)
    : phases.find((p) => p.scenario !== 'warm-up' && profiled(p));
  if (!window) {
    console.error(`no such phase; the phases are:\n  ${phases.map(label).join('\n  ')}`);
    process.exit(2);
  }
  const name = threadOf(window.pid);
  if (!name) {
    console.error(
      `no .cpuprofile of process ${window.pid}'s thread ${values.thread} (the server of '${label(window)}') ` +
        `in ${target}`,
    );
    process.exit(2);
  }
  file = join(target, name);
} else {
  file = target;
}

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// Self time per node: each sample's time is the delta to the next sample.
const selfUs = new Map<number, number>();
let total = 0;
let t = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  t += profile.timeDeltas[i];
  const next = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : 0;
  if (window && (t < window.startUs || t > window.endUs)) continue;
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + next);
  total += next;
}

const where = (frame: CallFrame) => {
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return '';
  const path = url.startsWith('/') ? relative(ROOT, url) : url;
  return `${path}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
};

/** The package or area a frame belongs to. */
function area(frame: CallFrame): string {
  const url = frame.url.replace(/^file:\/\//, '');
  // The embedded store is PostgreSQL compiled to WebAssembly; crossings between it and JS are its too.
  if (url.startsWith('wasm:') || /^(wasm-to-js|js-to-wasm|GenericJSToWasmWrapper)/.test(frame.functionName))
    return 'WebAssembly';
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const path = relative(ROOT, url);
  const parts = path.split('/');
  return parts[0] === 'src' && parts.length > 2 ? `src/${parts[1]}/` : path;
}

/** The areas on a node's stack, each once (async work is seen from where it resumed, not where it was started). */
function areasOnStack(id: number): Set<string> {
  const found = new Set<string>();
  for (let at: number | undefined = id, depth = 0; at !== undefined && depth < 1000; at = parent.get(at), depth++) {
    const frame = byId.get(at)!.callFrame;
    if (frame.functionName !== '(root)') found.add(area(frame));
  }
  return found;
}

const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
const functions = new Map<string, number>();
const areas = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = byId.get(id)!.callFrame;
  add(functions, `${frame.functionName || '(anonymous)'}\t${where(frame)}\t${area(frame)}`, us);
  add(areas, area(frame), us);
  for (const onStack of areasOnStack(id)) add(inclusive, onStack, us);
}

const share = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);

console.log(`${relative(process.cwd(), file)}`);
console.log(
  window
    ? `phase '${window.store} ${window.scenario} ${window.mode}': ` +
        `${((window.endUs - window.startUs) / 1e6).toFixed(1)} s, ${(total / 1000).toFixed(0)} ms sampled`
    : `whole profile: ${(total / 1000).toFixed(0)} ms sampled`,
);
console.log(`\nTop ${top} functions by self time:`);
for (const [key, us] of sorted(functions).slice(0, top)) {
  const [name, place, pkg] = key.split('\t');
  console.log(`${share(us)} ${ms(us)}  ${name}  ${place ? `${place}  ` : ''}[${pkg}]`);
}
console.log('\nSelf time by package or area:');
for (const [key, us] of sorted(areas).slice(0, top)) console.log(`${share(us)} ${ms(us)}  ${key}`);
console.log('\nTotal time by package or area (self plus what it calls, on the same synchronous stack):');
for (const [key, us] of sorted(inclusive).slice(0, top)) console.log(`${share(us)} ${ms(us)}  ${key}`);
