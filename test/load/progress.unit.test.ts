/**
 * What a load prints: its progress line, rewritten on a terminal and written
 * now and then elsewhere, and the summary line when it ends.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { summary } from '../../src/load/loader.ts';
import { describeProgress, duration, progressReporter } from '../../src/load/progress.ts';

describe('progress', () => {
  test('shows records, rate, and an ETA when the size is known', () => {
    const p = { file: 'f.ndjson', records: 50_000, bytesRead: 250, totalBytes: 1000, elapsedMs: 2000 };
    assert.equal(describeProgress(p), 'f.ndjson: 50,000 records, 25,000/s, 25%, ETA 0:06');
    assert.equal(describeProgress({ ...p, totalBytes: undefined }), 'f.ndjson: 50,000 records, 25,000/s');
    assert.equal(duration(4000), '1:06:40');
  });

  test('rewrites one line on a terminal; writes a plain line now and then otherwise', () => {
    let clock = 0;
    const p = { file: 'f', records: 1, bytesRead: 1, totalBytes: undefined, elapsedMs: 1000 };
    const tty = {
      isTTY: true,
      text: '',
      write(s: string) {
        this.text += s;
      },
    };
    const onTty = progressReporter(tty, { now: () => clock });
    for (clock = 0; clock <= 1000; clock += 100) onTty.update(p);
    onTty.done();
    assert.equal(tty.text.split('\r\x1b[K').length - 1, 6); // five updates (every 200 ms) and the clearing
    assert.ok(!tty.text.includes('\n'));

    const log = {
      text: '',
      write(s: string) {
        this.text += s;
      },
    };
    const onLog = progressReporter(log, { now: () => clock });
    for (clock = 0; clock <= 12_000; clock += 100) onLog.update(p);
    onLog.done();
    assert.equal(log.text, 'f: 1 records, 1/s\nf: 1 records, 1/s\n');

    // Too wide for the terminal: the start of the file name goes, the numbers stay.
    const narrow = {
      isTTY: true,
      columns: 30,
      text: '',
      write(s: string) {
        this.text += s;
      },
    };
    clock = 0;
    const onNarrow = progressReporter(narrow, { now: () => clock });
    clock = 1000;
    onNarrow.update({ ...p, file: '/a/very/long/path/to/births.ndjson' });
    assert.equal(narrow.text, '\r\x1b[K…irths.ndjson: 1 records, 1/s');
    assert.equal([...'…irths.ndjson: 1 records, 1/s'].length, 29); // one column spare: no wrap
  });
});

test('summary line', () => {
  const line = summary({
    read: 10,
    inserted: 5,
    updated: 2,
    unchanged: 2,
    rejected: 1,
    seconds: 2,
    rejectsPath: undefined,
  });
  assert.equal(line, 'read 10, inserted 5, updated 2, unchanged 2, rejected 1 in 2.0 s (5 records/s)');
});
