import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { verifyEntries } from '../../src/audit/verify.ts';
import { openBackend } from '../../src/backend/open.ts';
import { HISTORY_CALLERS, HISTORY_DAYS, auditHistory } from '../../src/mock/audit-history.ts';
import { CALLER, testConfig } from '../helper.ts';
import { builtInServiceTypes, builtInTypes, searchableScenarios } from '../record-types.ts';

const REPORT = '/api/v0/audit/user-activity';
const AUDITOR = { ...CALLER, 'x-auth-roles': 'audit' };
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

test('the history is the same for the same day, covers working days only, and ends before today', () => {
  const today = new Date('2026-11-23T10:00:00Z');
  const entries = auditHistory(today, searchableScenarios);
  assert.deepEqual(auditHistory(new Date('2026-11-23T23:59:00Z'), searchableScenarios), entries);
  assert.ok(entries.every(({ at }) => at < '2026-11-23' && at >= '2026-10-26'));
  assert.ok(
    entries.every(({ at }) => ![0, 6].includes(new Date(at).getUTCDay())),
    'no weekend entries',
  );
  assert.deepEqual(
    entries.map(({ at }) => at),
    entries.map(({ at }) => at).sort(),
    'oldest first, so the chain runs in time order',
  );
  assert.equal(new Set(entries.map(({ entry }) => entry.requestId)).size, entries.length);
});

test('the mock starts with that history in its audit trail: several users, groups and datasets, chained', async (t) => {
  const store = await openBackend(testConfig(), builtInServiceTypes);
  assert.equal(store.kind, 'memory');
  const app = await buildApp(testConfig(), { backend: store, descriptions: builtInTypes });
  t.after(async () => {
    await app.close();
    await store.close();
  });

  const report = await app.inject({ url: `${REPORT}?from=${daysAgo(HISTORY_DAYS + 1)}`, headers: AUDITOR });
  assert.equal(report.statusCode, 200);
  const byUser = report.json() as Record<string, Record<string, number>>;
  assert.deepEqual(Object.keys(byUser).sort(), HISTORY_CALLERS.map((c) => c.username).sort());
  for (const days of Object.values(byUser))
    assert.ok(Object.keys(days).length >= 15, 'a count on each working day of four weeks');

  const group = await app.inject({
    url: `${REPORT}?from=${daysAgo(HISTORY_DAYS + 1)}&group=hmpo-fraud`,
    headers: AUDITOR,
  });
  assert.deepEqual(Object.keys(group.json()).sort(), [
    'a.nwosu@hmpo.example.gov.uk',
    'k.lindqvist@hmpo.example.gov.uk',
  ]);
  for (const dataset of ['birth', 'death', 'marriage', 'partnership']) {
    const one = await app.inject({
      url: `${REPORT}?from=${daysAgo(HISTORY_DAYS + 1)}&dataset=${dataset}`,
      headers: AUDITOR,
    });
    assert.ok(Object.keys(one.json()).length > 0, `history holds ${dataset} accesses`);
  }

  // Today's accesses go on the same chain after the history.
  assert.equal((await app.inject({ url: '/v1/registration/birth/123456789', headers: CALLER })).statusCode, 200);
  await app.close();
  const verified = await verifyEntries(store.kind === 'memory' ? store.trail.kept() : []);
  // The history, then the six readings of the report above (each an audit-read) and the lookup.
  assert.deepEqual(verified, { ok: true, entries: auditHistory(new Date(), searchableScenarios).length + 6 + 1 });
});
