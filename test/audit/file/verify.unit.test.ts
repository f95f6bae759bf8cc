/**
 * `lev-api audit verify --file`: damage, gaps and lines that are not JSON, each reported by file
 * and line, with what was verified before them.
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { verifyAuditFiles } from '../../../src/audit/file/verify.ts';
import { openMemoryTrail } from '../../../src/audit/memory-trail.ts';
import { entry, tempDir, verifyCommand } from './trail-files.ts';

test('an altered, removed or reordered entry, or a broken link between files, is reported', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
  for (let i = 0; i < 6; i++) await trail.record(entry(i));
  await trail.close();
  const original = await readFile(path, 'utf8');
  const lines = original.trimEnd().split('\n');

  await writeFile(path, original.replace('"user-1"', '"someone-else"'));
  const altered = await verifyAuditFiles(path);
  assert.deepEqual(altered.ok === false && { line: altered.line, entries: altered.entries }, { line: 3, entries: 2 });
  const command = await verifyCommand(t, path);
  assert.equal(command.code, 1);
  assert.match(command.output, /audit trail BROKEN at .*audit\.ndjson line 3, after 1 good entries/);

  await writeFile(path, `${[...lines.slice(0, 3), ...lines.slice(4)].join('\n')}\n`);
  assert.equal((await verifyAuditFiles(path)).ok, false, 'an entry removed');
  await writeFile(path, `${[lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n')}\n`);
  assert.equal((await verifyAuditFiles(path)).ok, false, 'two entries swapped');

  // Two files whose link does not hold: the newer one says it continues from another hash.
  await writeFile(`${path}.1`, original);
  await writeFile(path, `${JSON.stringify({ previous: 'f'.repeat(64) })}\n`);
  const unlinked = await verifyAuditFiles(path);
  assert.equal(
    unlinked.ok === false && unlinked.reason,
    'the file does not continue from the end of the file before it',
  );
  assert.equal((await verifyCommand(t, join(dir, 'missing.ndjson'))).code, 1);
});

test(
  'a rotated file missing from the middle is reported ' + 'by name, and the files beyond it are still checked',
  async (t) => {
    const dir = await tempDir(t);
    const path = join(dir, 'audit.ndjson');
    const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 2048, keep: 6 } });
    for (let i = 0; i < 80; i++) await trail.record(entry(i));
    await trail.close();
    const before = await verifyAuditFiles(path);
    assert.ok(before.ok && before.files === 7, 'seven files, intact');
    const count = async (file: string) => (await readFile(file, 'utf8')).trimEnd().split('\n').length - 1;
    const older = (await count(`${path}.6`)) + (await count(`${path}.5`)) + (await count(`${path}.4`));
    const newer = (await count(`${path}.2`)) + (await count(`${path}.1`)) + (await count(path));
    await rm(`${path}.3`);

    const result = await verifyAuditFiles(path);
    assert.equal(result.ok, false, 'a gap is a failure');
    assert.ok(!result.ok);
    assert.equal(result.file, `${path}.3`);
    assert.match(result.reason, /missing/);
    assert.deepEqual(
      result.segments.map((s) => ({ from: s.from, to: s.to, entries: s.entries, ok: s.ok })),
      [
        { from: `${path}.6`, to: `${path}.4`, entries: older, ok: true },
        { from: `${path}.2`, to: path, entries: newer, ok: true },
      ],
      'the files on both sides of the gap are checked',
    );
    const command = await verifyCommand(t, path);
    assert.equal(command.code, 1);
    assert.match(command.output, /audit trail BROKEN: .*audit\.ndjson\.3 is missing/);
    assert.match(
      command.output,
      new RegExp(`audit\\.ndjson\\.6 to .*audit\\.ndjson\\.4: ${older} entries, chain intact`),
    );
    assert.match(command.output, new RegExp(`audit\\.ndjson\\.2 to .*audit\\.ndjson: ${newer} entries, chain intact`));

    // The newest file gone, rotated ones left: named too, not "no such file".
    await rm(path);
    const headless = await verifyAuditFiles(path);
    assert.ok(!headless.ok);
    assert.deepEqual(
      headless.problems.map((problem) => problem.file),
      [`${path}.3`, path],
    );
  },
);

test('a line that is not JSON is reported after the entries verified before it', async (t) => {
  const path = join(await tempDir(t), 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
  for (let i = 0; i < 4; i++) await trail.record(entry(i));
  await trail.close();
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  await writeFile(path, `${[...lines.slice(0, 3), '{"at": broken', ...lines.slice(4)].join('\n')}\n`);
  const command = await verifyCommand(t, path);
  assert.equal(command.code, 1);
  assert.match(command.output, /audit trail BROKEN at .*audit\.ndjson line 4, after 2 good entries: not valid JSON/);
});
