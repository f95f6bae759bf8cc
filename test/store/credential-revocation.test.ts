/**
 * Which changes revoke a credential, on every backend: for each update reason the change feed can
 * give (src/records/changes.ts), a birth with a credential is changed so that the feed names that
 * reason, and its credential is then invalid exactly when the reason is one of REVOKING_REASONS.
 * PostgreSQL's trigger holds the list as SQL (a migration written from it), the memory store reads
 * it: a difference fails here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UPDATE_REASONS, type UpdateReason } from '../../src/records/changes.ts';
import { REVOKING_REASONS } from '../../src/model/credentials.ts';
import type { StoredRecord } from '../../src/model/records.ts';
import { emptyStore, recordTypes, storeKinds } from '../helper.ts';

const birthType = recordTypes().find((type) => type.description.name === 'birth')!;

type Status = Record<string, unknown>;
const birth = (id: number, status: Status = {}, extra: Record<string, unknown> = {}): StoredRecord => {
  const result = birthType.toStored({
    id,
    child: { forenames: 'Ada', surname: 'Revoke', dateOfBirth: '2001-01-01' },
    status: { blocked: false, correction: 'None', marginalNote: 'None', cancelled: false, ...status },
    ...extra,
  });
  if ('reason' in result) throw new Error(`test record ${id}: ${result.reason}`);
  return result;
};

/** For each reason, the record before and after a change the feed names so: every reason has one. */
const CHANGES: Record<UpdateReason, (id: number) => [StoredRecord, StoredRecord]> = {
  cancelled: (id) => [birth(id), birth(id, { cancelled: true })],
  replaced: (id) => [birth(id), birth(id, {}, { nextRegistration: { id: id + 1 } })],
  blocked: (id) => [birth(id), birth(id, { blocked: true })],
  unblocked: (id) => [birth(id, { blocked: true }), birth(id)],
  corrected: (id) => [birth(id), birth(id, { correction: 'Clerical error' })],
  'marginal-note': (id) => [birth(id), birth(id, { marginalNote: 'Name changed by deed poll' })],
  other: (id) => [birth(id), birth(id, {}, { entryNumber: 9 })],
};

for (const kind of await storeKinds()) {
  test(`a credential is revoked by the reasons REVOKING_REASONS lists, and by no other (${kind})`, async (t) => {
    const store = await emptyStore(t, kind);
    const revoking = new Set<string>(REVOKING_REASONS);
    assert.deepEqual(Object.keys(CHANGES).sort(), [...UPDATE_REASONS].sort(), 'a change for every reason');
    const ids = new Map(UPDATE_REASONS.map((reason, i) => [reason, 1000 + 10 * i]));
    await store.upsert(
      'birth',
      UPDATE_REASONS.map((reason) => CHANGES[reason](ids.get(reason)!)[0]),
    );
    const entries = new Map<UpdateReason, { list: number; idx: number }>();
    for (const reason of UPDATE_REASONS)
      entries.set(reason, await store.credentials.allocate('birth', ids.get(reason)!));
    // A credential of another registration, which no change touches.
    const bystander = await store.credentials.allocate('birth', 1);
    const head = (await store.events.bounds(new Date(0))).head;
    await store.upsert(
      'birth',
      UPDATE_REASONS.map((reason) => CHANGES[reason](ids.get(reason)!)[1]),
    );
    const { events } = await store.events.read(head, ['birth.updated'], 100);
    assert.deepEqual(
      events.map((event) => [event.recordId, event.reason]),
      UPDATE_REASONS.map((reason) => [ids.get(reason), reason]),
      'each change is named by its reason',
    );
    const invalid = async (entry: { list: number; idx: number }) =>
      ((await store.credentials.invalid(entry.list)) ?? []).includes(entry.idx);
    for (const reason of UPDATE_REASONS) {
      assert.equal(
        await invalid(entries.get(reason)!),
        revoking.has(reason),
        `a change for the reason ${reason} ${revoking.has(reason) ? 'revokes' : 'leaves'} the credential`,
      );
    }
    assert.equal(await invalid(bystander), false);
  });
}
