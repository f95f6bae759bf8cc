/**
 * Progress of a load on stderr: on a terminal, one line rewritten in place
 * (records, rate, and the ETA when the input's size is known); otherwise,
 * as in a log, a plain line every few seconds.
 */
import type { LoadProgress } from './loader.ts';

interface ProgressReporter {
  update(progress: LoadProgress): void;
  /** Clears the in-place line, so the summary starts on a clean line. */
  done(): void;
}

interface Output {
  readonly isTTY?: boolean;
  /** The terminal's width: a longer line would wrap, and could no longer be rewritten in place. */
  readonly columns?: number;
  write(text: string): unknown;
}

/** Keeps the end of a line (the numbers) when it is too wide, dropping the start of the file name. */
const fit = (line: string, columns: number | undefined) =>
  columns && line.length >= columns ? `…${line.slice(line.length - (columns - 2))}` : line;

const grouped = (n: number) => Math.round(n).toLocaleString('en-GB');

/** 75 → "1:15"; 4000 → "1:06:40". */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(r)}` : `${m}:${two(r)}`;
}

export function describeProgress(p: LoadProgress): string {
  const seconds = p.elapsedMs / 1000;
  const parts = [`${p.file}: ${grouped(p.records)} records`, `${grouped(seconds > 0 ? p.records / seconds : 0)}/s`];
  if (p.totalBytes && p.bytesRead > 0) {
    const done = Math.min(1, p.bytesRead / p.totalBytes);
    parts.push(`${Math.floor(done * 100)}%`, `ETA ${duration((seconds * (1 - done)) / done)}`);
  }
  return parts.join(', ');
}

export function progressReporter(
  output: Output,
  { ttyEveryMs = 200, logEveryMs = 5000, now = () => performance.now() } = {},
): ProgressReporter {
  const tty = Boolean(output.isTTY);
  const every = tty ? ttyEveryMs : logEveryMs;
  let last = now();
  let shown = false;
  return {
    update(progress) {
      const t = now();
      if (t - last < every) return;
      last = t;
      const line = describeProgress(progress);
      if (tty) {
        output.write(`\r\x1b[K${fit(line, output.columns)}`);
        shown = true;
      } else output.write(`${line}\n`);
    },
    done() {
      if (shown) output.write('\r\x1b[K');
      shown = false;
    },
  };
}
