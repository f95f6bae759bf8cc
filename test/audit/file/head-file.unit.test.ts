/**
 * The head recorded beside the trail: a cut end reported and refused, a head behind the file's
 * end (a crash between the two syncs) no cut, and the head followed across rotations.
 */
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultHeadPath } from '../../../src/audit/file/head-file.ts';
import { verifyAuditFiles } from '../../../src/audit/file/verify.ts';
import { openMemoryTrail } from '../../../src/audit/memory-trail.ts';
import { entry, tempDir, verifyCommand, serviceTrail } from './trail-files.ts';

test(
  'the newest entries cut off the end of the file are reported by verify, and the service does not start ' +
    'from the cut',
  async (t) => {
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
    assert.match(
      command.output,
      /audit trail BROKEN: .*audit\.ndjson ends before its last recorded head .*audit\.ndjson\.head/,
    );
    assert.match(command.output, /4 entries, chain intact/, 'what is left is still checked');
    await assert.rejects(serviceTrail(path), (error: Error) => {
      assert.equal(error.name, 'AuditFileError');
      assert.match(
        error.message,
        /audit\.ndjson ends before its last recorded head .*audit\.ndjson\.head.*lev-api audit verify --file/,
      );
      return true;
    });

    // The whole file gone, or emptied to its first line: the same.
    await writeFile(path, `${lines[0]}\n`);
    await assert.rejects(serviceTrail(path), /ends before its last recorded head/);
    await rm(path);
    await assert.rejects(serviceTrail(path), /ends before its last recorded head/);
    assert.equal((await verifyCommand(t, path)).code, 1);
  },
);

test(
  'a head behind the end of the file (a crash between the ' + 'two syncs) is no cut: the trail verifies and continues',
  async (t) => {
    const dir = await tempDir(t);
    const path = join(dir, 'audit.ndjson');
    const trail = await serviceTrail(path);
    for (let i = 0; i < 3; i++) await trail.record(entry(i));
    const older = await readFile(`${path}.head`, 'utf8');
    for (let i = 3; i < 5; i++) await trail.record(entry(i));
    await trail.close();
    await writeFile(`${path}.head`, older);
    assert.deepEqual(await verifyAuditFiles(path), {
      ok: true,
      entries: 5,
      files: 1,
      fromGenesis: true,
      head: `${path}.head`,
    });
    const reopened = await serviceTrail(path);
    await reopened.record(entry(5));
    await reopened.close();
    const head = JSON.parse(await readFile(`${path}.head`, 'utf8'));
    const last = JSON.parse((await readFile(path, 'utf8')).trimEnd().split('\n').at(-1)!);
    assert.equal(head.hash, last.hash, 'the head follows each sync');
    assert.deepEqual(await verifyAuditFiles(path), {
      ok: true,
      entries: 6,
      files: 1,
      fromGenesis: true,
      head: `${path}.head`,
    });
  },
);

test('the head follows the chain across rotations', async (t) => {
  const dir = await tempDir(t);
  const path = join(dir, 'audit.ndjson');
  const trail = await openMemoryTrail({
    keep: 10,
    file: { path, maxBytes: 2048, keep: 2, headPath: defaultHeadPath(path) },
  });
  for (let i = 0; i < 40; i++) await trail.record(entry(i));
  await trail.close();
  const result = await verifyAuditFiles(path);
  assert.ok(result.ok && result.head === `${path}.head` && result.files === 3);
  // The newest file removed whole: the rotated ones still chain, but the head is not in them.
  await rm(path);
  const cut = await verifyAuditFiles(path);
  assert.ok(!cut.ok && cut.problems.some((problem) => /ends before its last recorded head/.test(problem.reason)));
});
