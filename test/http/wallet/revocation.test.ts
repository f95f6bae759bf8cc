/**
 * A load that revokes a registration revokes what wallets hold of it, in every format, on the
 * memory store and the real PostgreSQL server: two births loaded through the ingest pipeline
 * (`lev-api load`'s), each picked up by a wallet in every format over the real routes; then a load
 * that corrects one (a reason REVOKING_REASONS lists) and adds a marginal note to the other (a
 * reason it does not). Each credential's status is read as its format's verifier reads it (the
 * SD-JWT VC by `@sd-jwt/sd-jwt-vc`, the mdoc's from the list's CWT form, the JWT VC's from its JWT
 * form) until it turns, within 5 s: the corrected birth's credentials are revoked, the other's stand.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadFiles } from '../../../src/load/loader.ts';
import { FULL_ID } from '../../../src/mock/dataset.ts';
import { REVOKING_REASONS } from '../../../src/model/credentials.ts';
import { CALLER, type RunningApp, emptyStore, startApp, storeKinds, testConfig } from '../../helper.ts';
import { mock, ndjson, tempDir } from '../../load/load-fixture.ts';
import { builtInType } from '../../record-types.ts';
import { STATUS, newWallet, pickUp } from './wallet.ts';

type Json = Record<string, any>;

const birth = builtInType('birth');
const ROLES = { ...CALLER, 'x-auth-roles': 'credentials,birth', 'content-type': 'application/json' };
const CORRECTED = 700_000_601;
const NOTED = 700_000_602;

const setPath = (target: Json, path: string, value: unknown) => {
  const keys = path.split('.');
  let at = target;
  for (const key of keys.slice(0, -1)) at = at[key] ??= {};
  at[keys[keys.length - 1]] = value;
};

/** The mock's birth with every field filled, as a load entry of another id, `change` made to it. */
function entry(id: number, change: (record: Json) => void = () => {}): Json {
  const record = { ...structuredClone(mock.birth.find((r) => r.id === FULL_ID)), id };
  change(record);
  return record;
}

/** The birth picked up by a wallet in a format: its credential. */
async function pickedUp(app: RunningApp, id: number, format: string): Promise<string> {
  const response = await fetch(`${app.url}/v1/credentials/birth/${id}/offer`, {
    method: 'POST',
    headers: ROLES,
    body: JSON.stringify({ format }),
  });
  const { offer } = (await response.json()) as { offer: string };
  assert.equal(response.status, 201, offer);
  const { credentials } = await pickUp(newWallet(), offer);
  assert.equal(credentials.length, 1);
  return credentials[0];
}

for (const kind of await storeKinds()) {
  test(
    `${kind}: a load that corrects a registration revokes ` + `its credentials in every format, and only those`,
    async (t) => {
      const { correction, marginalNote } = birth.changes;
      assert.ok(correction && marginalNote, 'births record corrections and marginal notes');
      const revoking: readonly string[] = REVOKING_REASONS;
      assert.ok(revoking.includes('corrected') && !revoking.includes('marginal-note'), 'the reasons this test gives');
      const store = await emptyStore(t, kind);
      const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const dir = await tempDir(t);
      const load = async (name: string, entries: Json[]) => {
        const file = join(dir, name);
        await writeFile(file, ndjson(entries));
        return loadFiles(store.writer, birth, [file]);
      };
      assert.equal((await load('births.ndjson', [entry(CORRECTED), entry(NOTED)])).inserted, 2);

      const { body: metadata } = await app.get('/.well-known/openid-credential-issuer', {});
      const formats = [
        ...new Set(Object.values(metadata.credential_configurations_supported).map((c: any) => c.format as string)),
      ];
      assert.deepEqual([...formats].sort(), Object.keys(STATUS).sort(), 'a status reader for every format issued');
      const held: { format: string; id: number; status: () => Promise<number> }[] = [];
      for (const format of formats) {
        for (const id of [CORRECTED, NOTED]) {
          const credential = await pickedUp(app, id, format);
          const status = () => STATUS[format](credential, { issuer: app.url, type: birth.name });
          assert.equal(await status(), 0, `${format} of ${id}: stands when picked up`);
          held.push({ format, id, status });
        }
      }

      const head = (await store.events.bounds(new Date(0))).head;
      const updated = await load('update.ndjson', [
        entry(CORRECTED, (record) =>
          setPath(record, correction, 'Surname corrected on the authority of the registrar'),
        ),
        entry(NOTED, (record) => setPath(record, marginalNote, 'Name changed by deed poll')),
      ]);
      assert.equal(updated.updated, 2);
      const { events } = await store.events.read(head, ['birth.updated'], 10);
      assert.deepEqual(
        events.map((event) => [event.recordId, event.reason]),
        [
          [CORRECTED, 'corrected'],
          [NOTED, 'marginal-note'],
        ],
      );

      // Revoked within 5 s of the load (a status list is read afresh after STATUS_LIST_REUSE_MS).
      const started = Date.now();
      for (const { format, id, status } of held.filter(({ id }) => id === CORRECTED)) {
        let read = await status();
        while (read === 0 && Date.now() - started < 5000) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          read = await status();
        }
        assert.equal(read, 1, `${format} of ${id}: revoked by the correction`);
      }
      for (const { format, id, status } of held.filter(({ id }) => id === NOTED))
        assert.equal(await status(), 0, `${format} of ${id}: stands after a marginal note`);
    },
  );
}
