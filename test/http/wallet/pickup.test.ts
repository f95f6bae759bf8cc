/**
 * The wallet pick-up end to end over real HTTP, on the memory store and the real PostgreSQL server:
 * a department asks for an offer of the mock's record 123456789 of every type in every format, and
 * a wallet this project did not write (`Openid4vciClient`, wallet.ts) resolves it, exchanges the
 * pre-authorised code (with and without a transaction code), asks for a nonce, proves its key, gets
 * the credential and tells the issuer it accepted it. Each credential is verified by its format's
 * verifier, audited, listed among who has seen the record, and kept with its notification.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CALLER, filledStore, startApp, storeKinds, testConfig, trailEntries } from '../../helper.ts';
import { builtInTypes as records } from '../../record-types.ts';
import { VERIFIERS, newWallet, pickUp } from './wallet.ts';

const ROLES = {
  ...CALLER,
  'x-auth-roles': `credentials,${records.map((record) => record.name).join(',')}`,
  'content-type': 'application/json',
};
const ID = 123456789;

for (const kind of await storeKinds()) {
  test(
    `${kind}: a wallet picks up every record type in ` + `every format, with and without a transaction code`,
    async (t) => {
      const store = await filledStore(t, kind);
      const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const metadata = await app.get('/.well-known/openid-credential-issuer', {});
      assert.equal(metadata.status, 200, metadata.text);
      const formats = [
        ...new Set(
          Object.values(metadata.body.credential_configurations_supported).map((c: any) => c.format as string),
        ),
      ];
      assert.ok(formats.includes('dc+sd-jwt'));
      for (const format of formats)
        assert.ok(VERIFIERS[format], `${format}: the test has a verifier for every format issued`);

      let picked = 0;
      for (const format of formats) {
        for (const [i, description] of records.entries()) {
          const wallet = newWallet();
          const txCode = i % 2 === 0;
          const response = await fetch(`${app.url}/v1/credentials/${description.name}/${ID}/offer`, {
            method: 'POST',
            headers: ROLES,
            body: JSON.stringify({ format, ...(txCode ? { txCode: true } : {}) }),
          });
          const offered = (await response.json()) as { offer: string; txCode?: string; expiresAt: string };
          assert.equal(response.status, 201, JSON.stringify(offered));
          assert.match(offered.offer, /^openid-credential-offer:\/\/\?credential_offer=/);
          assert.equal(offered.txCode !== undefined, txCode);
          assert.ok(Date.parse(offered.expiresAt) > Date.now());

          const { credentials, notificationId } = await pickUp(wallet, offered.offer, offered.txCode);
          assert.equal(credentials.length, 1);
          await VERIFIERS[format](credentials[0], { issuer: app.url, type: description.name, recordId: ID, wallet });
          const offerId = JSON.parse(
            Buffer.from(
              JSON.parse(decodeURIComponent(offered.offer.split('credential_offer=')[1])).grants[
                'urn:ietf:params:oauth:grant-type:pre-authorized_code'
              ]['pre-authorized_code'].split('.')[1],
              'base64url',
            ).toString(),
          ).credential_identifiers[0];
          const state = await store.wallet.offer(offerId);
          assert.equal(state?.notificationId, notificationId);
          assert.deepEqual(
            state?.notifications.map((n) => n.event),
            ['credential_accepted'],
          );
          picked++;
        }
      }
      // Each offer and each credential audited, and listed among who has seen the record.
      const entries = (await trailEntries(store)).filter((entry) => entry.operation === 'credential');
      assert.equal(entries.length, picked * 2);
      assert.ok(
        entries.some((entry) => entry.path === '/v1/wallet/credential' && entry.fields?.length),
        'the pick-up names the fields disclosed',
      );
      const seen = await app.get(`/api/v0/audit/records/${records[0].name}/${ID}`, {
        ...CALLER,
        'x-auth-roles': 'audit',
      });
      assert.equal(seen.status, 200, seen.text);
      assert.ok(seen.body.filter((access: any) => access.operation === 'credential').length >= 2, seen.text);
    },
  );
}
