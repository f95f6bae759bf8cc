/**
 * The end of the audit file: a torn last line set aside at start or passed over by verify, and
 * other damage at the end stopping the start.
 */
import assert from 'node:assert/strict';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { verifyAuditFiles } from '../../../src/audit/file/verify.ts';
import { openMemoryTrail } from '../../../src/audit/memory-trail.ts';
import { entry, tempDir, verifyCommand } from './trail-files.ts';

test('a torn last line is set aside at start, named, and the chain continues from the last whole entry', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
  for (let i = 0; i < 5; i++) await trail.record(entry(i));
  await trail.close();
  const whole = await readFile(path, 'utf8');
  // A crash in the middle of a write: the line has no end, and its request was never answered.
  const torn = '{"at":"2026-11-24T06:00:00.000Z","username":"us';
  await appendFile(path, torn);

  const reopened = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
  const aside = reopened.tornTailSetAside;
  assert.ok(aside !== undefined, 'the torn line is said to be set aside');
  assert.match(aside, /audit\.ndjson\.torn-/);
  assert.equal(await readFile(aside, 'utf8'), torn, 'kept for investigation, byte for byte');
  assert.equal(await readFile(path, 'utf8'), whole, 'the file ends with its last whole entry');
  for (let i = 5; i < 7; i++) await reopened.record(entry(i));
  await reopened.close();

  const result = await verifyAuditFiles(path);
  assert.deepEqual(result, { ok: true, entries: 7, files: 1, fromGenesis: true, setAside: [aside] });
  const command = await verifyCommand(t, path);
  assert.equal(command.code, 0, command.output);
  assert.match(command.output, /audit trail intact: 7 entries/);
  assert.match(command.output, /torn last line .* set aside .*audit\.ndjson\.torn-/);
});

test('a torn last line is reported by verify as a write that never completed, not as damage', async (t) => {
  const path = join(await tempDir(t), 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
  for (let i = 0; i < 3; i++) await trail.record(entry(i));
  await trail.close();
  await appendFile(path, '{"at":"2026');
  const result = await verifyAuditFiles(path);
  assert.deepEqual(result, { ok: true, entries: 3, files: 1, fromGenesis: true, tornTail: true });
  const command = await verifyCommand(t, path);
  assert.equal(command.code, 0, command.output);
  assert.match(command.output, /last line of .*audit\.ndjson has no end/);
});

test('other damage at the end of the file stops the start, naming the file, the line and what to run', async (t) => {
  const path = join(await tempDir(t), 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } });
  for (let i = 0; i < 3; i++) await trail.record(entry(i));
  await trail.close();
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  await writeFile(path, `${[...lines.slice(0, -1), '{"at": not json'].join('\n')}\n`);
  await assert.rejects(openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } }), (error: Error) => {
    assert.equal(error.name, 'AuditFileError');
    assert.match(error.message, new RegExp(`^${path.replace(/[.]/g, '\\.')} line 4: .*lev-api audit verify --file`));
    return true;
  });
  await writeFile(path, `${[...lines.slice(0, -1), '{"at":"2026-01-01T00:00:00.000Z"}'].join('\n')}\n`);
  await assert.rejects(
    openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } }),
    /line 4: .*holds no hash/,
  );
});
