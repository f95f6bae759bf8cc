/**
 * The audit file's writer: rotation at its size across the files kept, and a restarted trail
 * continuing the chain in its file.
 */
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { verifyAuditFiles } from '../../../src/audit/file/verify.ts';
import { openMemoryTrail } from '../../../src/audit/memory-trail.ts';
import { entry, tempDir, verifyCommand } from './trail-files.ts';

test('the file rotates at its size, keeps the number of files asked, and verifies across them', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 4096, keep: 2 } });
  for (let i = 0; i < 100; i++) await trail.record(entry(i));
  await trail.close();
  assert.deepEqual((await readdir(dir)).sort(), ['audit.ndjson', 'audit.ndjson.1', 'audit.ndjson.2']);
  for (const file of await readdir(dir))
    assert.ok((await readFile(join(dir, file))).length <= 4096, `${file} within its size`);

  const result = await verifyAuditFiles(path);
  assert.equal(result.ok, true);
  assert.ok(result.ok && !result.fromGenesis, 'older files were rotated away');
  assert.ok(result.ok && result.entries > 10 && result.entries < 100);
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  assert.equal(JSON.parse(lines.at(-1)!).requestId, 'r-99', 'the newest file ends with the latest entry');
  const verified = await verifyCommand(t, path);
  assert.equal(verified.code, 0, verified.output);
  assert.match(
    verified.output,
    /audit trail intact: \d+ entries in 3 file\(s\), chain verified from the oldest file kept/,
  );
});

test('a restarted trail continues the chain in its file', async (t) => {
  const path = join(await tempDir(t), 'audit.ndjson');
  for (const round of [0, 1]) {
    const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
    for (let i = 0; i < 5; i++) await trail.record(entry(round * 10 + i));
    await trail.close();
  }
  assert.deepEqual(await verifyAuditFiles(path), { ok: true, entries: 10, files: 1, fromGenesis: true });
});
