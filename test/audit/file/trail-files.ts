/**
 * What the tests of the embedded store's audit file share: entries to record, a folder of their
 * own, `lev-api audit verify --file` run as a command, and the trail as the service opens it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { openMemoryBackend } from '../../../src/backend/memory.ts';
import { auditCommand } from '../../../src/commands/audit.ts';
import { loadConfig } from '../../../src/config/index.ts';
import type { AuditEntry } from '../../../src/model/audit.ts';
import { builtInTypes as records, builtInTypes } from '../../record-types.ts';

export const entry = (i: number): AuditEntry => ({
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

export async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lev-audit-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs `lev-api audit verify --file`, capturing what it prints. */
export async function verifyCommand(t: TestContext, path: string) {
  const lines: string[] = [];
  t.mock.method(console, 'log', (...parts: unknown[]) => lines.push(parts.join(' ')));
  t.mock.method(console, 'error', (...parts: unknown[]) => lines.push(parts.join(' ')));
  try {
    return { code: await auditCommand.run(['verify', '--file', path], {}, builtInTypes), output: lines.join('\n') };
  } finally {
    t.mock.restoreAll();
  }
}

/** The trail as the service opens it for AUDIT_FILE=path. */
export async function serviceTrail(path: string) {
  const backend = await openMemoryBackend(records, loadConfig({ AUDIT_FILE: path }).embeddedAudit);
  return { record: (e: AuditEntry) => backend.trail.record(e), close: () => backend.close() };
}
