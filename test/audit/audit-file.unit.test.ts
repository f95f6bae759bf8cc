/**
 * The embedded store's audit trail: bounded in memory, appended to a
 * rotating file whose chain `lev-api audit verify --file` checks across the
 * rotated files, and continued where the file left off after a restart.
 */
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { defaultHeadPath, verifyAuditFiles } from '../../src/audit/audit-file.ts';
import { openMemoryBackend } from '../../src/backend/memory.ts';
import { records } from '../../src/records/index.ts';
import { openMemoryTrail } from '../../src/audit/memory-trail.ts';
import { verifyEntries } from '../../src/audit/verify.ts';
import { auditCommand } from '../../src/commands/audit.ts';
import { loadConfig } from '../../src/config/index.ts';
import type { AuditEntry } from '../../src/types/audit.ts';

const entry = (i: number): AuditEntry => ({
  username: `user-${i % 3}`,
  client: 'c',
  groups: i % 2 ? ['g'] : [],
  dataset: 'birth',
  operation: 'lookup',
  path: `/v1/registration/birth/${i}`,
  query: '',
  results: 1,
  requestId: `r-${i}`,
});

async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lev-audit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `lev-api audit verify --file`, capturing what it prints. */
async function verifyCommand(t: TestContext, path: string) {
  const lines: string[] = [];
  t.mock.method(console, 'log', (...parts: unknown[]) => lines.push(parts.join(' ')));
  t.mock.method(console, 'error', (...parts: unknown[]) => lines.push(parts.join(' ')));
  try {
    return { code: await auditCommand.run(['verify', '--file', path], {}), output: lines.join('\n') };
  } finally {
    t.mock.restoreAll();
  }
}

test('memory keeps only the latest entries, and they chain', async () => {
  const trail = await openMemoryTrail({ keep: 50 });
  await Promise.all(Array.from({ length: 500 }, (_, i) => trail.record(entry(i))));
  await trail.flush();
  const kept = trail.kept();
  assert.equal(kept.length, 50);
  assert.deepEqual(kept.map((e) => e.requestId), Array.from({ length: 50 }, (_, i) => `r-${450 + i}`));
  // The first kept entry anchors the rest.
  const [anchor, ...rest] = kept;
  assert.deepEqual(await verifyEntries(rest, anchor.hash), { ok: true, entries: 49 });
  const report = await trail.userActivity({ from: '1970-01-01', to: '2999-12-31' });
  assert.equal(Object.values(report).flatMap((days) => Object.values(days)).reduce((a, b) => a + b, 0), 50, 'the report counts what is kept');
  await trail.close();
});

test('the file rotates at its size, keeps the number of files asked, and verifies across them', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 4096, keep: 2 } });
  for (let i = 0; i < 100; i++) await trail.record(entry(i));
  await trail.close();
  assert.deepEqual((await readdir(dir)).sort(), ['audit.ndjson', 'audit.ndjson.1', 'audit.ndjson.2']);
  for (const file of await readdir(dir)) assert.ok((await readFile(join(dir, file))).length <= 4096, `${file} within its size`);

  const result = await verifyAuditFiles(path);
  assert.equal(result.ok, true);
  assert.ok(result.ok && !result.fromGenesis, 'older files were rotated away');
  assert.ok(result.ok && result.entries > 10 && result.entries < 100);
  const lines = (await readFile(path, 'utf8')).trimEnd().split('\n');
  assert.equal(JSON.parse(lines.at(-1)!).requestId, 'r-99', 'the newest file ends with the latest entry');
  const verified = await verifyCommand(t, path);
  assert.equal(verified.code, 0, verified.output);
  assert.match(verified.output, /audit trail intact: \d+ entries in 3 file\(s\), chain verified from the oldest file kept/);
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
  assert.equal(unlinked.ok === false && unlinked.reason, 'the file does not continue from the end of the file before it');
  assert.equal((await verifyCommand(t, join(dir, 'missing.ndjson'))).code, 1);
});

test('a rotated file missing from the middle is reported by name, and the files beyond it are still checked', async (t) => {
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
  assert.match(command.output, new RegExp(`audit\\.ndjson\\.6 to .*audit\\.ndjson\\.4: ${older} entries, chain intact`));
  assert.match(command.output, new RegExp(`audit\\.ndjson\\.2 to .*audit\\.ndjson: ${newer} entries, chain intact`));

  // The newest file gone, rotated ones left: named too, not "no such file".
  await rm(path);
  const headless = await verifyAuditFiles(path);
  assert.ok(!headless.ok);
  assert.deepEqual(headless.problems.map((problem) => problem.file), [`${path}.3`, path]);
});

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
  await assert.rejects(openMemoryTrail({ keep: 10, file: { path, maxBytes: 1 << 20, keep: 1 } }), /line 4: .*holds no hash/);
});

/** The trail as the service opens it for AUDIT_FILE=path. */
async function serviceTrail(path: string) {
  const backend = await openMemoryBackend(records, loadConfig({ AUDIT_FILE: path }).embeddedAudit);
  return { record: (e: AuditEntry) => backend.trail.record(e), close: () => backend.close() };
}

test('the newest entries cut off the end of the file are reported by verify, and the service does not start from the cut', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await serviceTrail(path);
  for (let i = 0; i < 6; i++) await trail.record(entry(i));
  await trail.close();
  const whole = await readFile(path, 'utf8');
  const verified = await verifyCommand(t, path);
  assert.equal(verified.code, 0, verified.output);
  assert.match(verified.output, /holds its last recorded head/);

  // The two newest entries deleted: the chain that is left is whole, and only the head kept beside it tells.
  const lines = whole.trimEnd().split('\n');
  await writeFile(path, `${lines.slice(0, -2).join('\n')}\n`);
  const cut = await verifyAuditFiles(path);
  assert.equal(cut.ok, false);
  assert.ok(!cut.ok);
  assert.match(cut.reason, /ends before its last recorded head/);
  const command = await verifyCommand(t, path);
  assert.equal(command.code, 1);
  assert.match(command.output, /audit trail BROKEN: .*audit\.ndjson ends before its last recorded head .*audit\.ndjson\.head/);
  assert.match(command.output, /4 entries, chain intact/, 'what is left is still checked');
  await assert.rejects(serviceTrail(path), (error: Error) => {
    assert.equal(error.name, 'AuditFileError');
    assert.match(error.message, /audit\.ndjson ends before its last recorded head .*audit\.ndjson\.head.*lev-api audit verify --file/);
    return true;
  });

  // The whole file gone, or emptied to its first line: the same.
  await writeFile(path, `${lines[0]}\n`);
  await assert.rejects(serviceTrail(path), /ends before its last recorded head/);
  await rm(path);
  await assert.rejects(serviceTrail(path), /ends before its last recorded head/);
  assert.equal((await verifyCommand(t, path)).code, 1);
});

test('a head behind the end of the file (a crash between the two syncs) is no cut: the trail verifies and continues', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await serviceTrail(path);
  for (let i = 0; i < 3; i++) await trail.record(entry(i));
  const older = await readFile(`${path}.head`, 'utf8');
  for (let i = 3; i < 5; i++) await trail.record(entry(i));
  await trail.close();
  await writeFile(`${path}.head`, older);
  assert.deepEqual(await verifyAuditFiles(path), { ok: true, entries: 5, files: 1, fromGenesis: true, head: `${path}.head` });
  const reopened = await serviceTrail(path);
  await reopened.record(entry(5));
  await reopened.close();
  const head = JSON.parse(await readFile(`${path}.head`, 'utf8'));
  const last = JSON.parse((await readFile(path, 'utf8')).trimEnd().split('\n').at(-1)!);
  assert.equal(head.hash, last.hash, 'the head follows each sync');
  assert.deepEqual(await verifyAuditFiles(path), { ok: true, entries: 6, files: 1, fromGenesis: true, head: `${path}.head` });
});

test('the head follows the chain across rotations', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await openMemoryTrail({ keep: 10, file: { path, maxBytes: 2048, keep: 2, headPath: defaultHeadPath(path) } });
  for (let i = 0; i < 40; i++) await trail.record(entry(i));
  await trail.close();
  const result = await verifyAuditFiles(path);
  assert.ok(result.ok && result.head === `${path}.head` && result.files === 3);
  // The newest file removed whole: the rotated ones still chain, but the head is not in them.
  await rm(path);
  const cut = await verifyAuditFiles(path);
  assert.ok(!cut.ok && cut.problems.some((problem) => /ends before its last recorded head/.test(problem.reason)));
});

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
