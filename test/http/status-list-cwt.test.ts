/**
 * The status list route answers the CWT form to a caller that asks for it (Accept:
 * application/statuslist+cwt), over real HTTP: a COSE_Sign1 the document signer signed (checked by
 * cwtStatusList with node:crypto against the certificate in its x5chain, which the published IACA
 * issued), holding the same entries as the JWT form, a revoked entry among them. Without that
 * Accept, the JWT as before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { emptyStore, startApp, testConfig } from '../helper.ts';
import { cwtStatusList } from './wallet/wallet.ts';

test('a status list in its CWT form, signed by the document signer, says what the JWT form says', async (t) => {
  const store = await emptyStore(t, 'memory');
  const running = await startApp(t, store, testConfig());
  const kept = await store.credentials.allocate('birth', 123456789);
  const revoked = await store.credentials.allocate('birth', 987654321);
  (store.credentials as unknown as { revoke(type: string, ids: number[]): void }).revoke('birth', [987654321]);
  assert.equal(kept.list, revoked.list);
  const path = `/v1/credentials/status/${kept.list}`;

  const { headers, header, claims, status } = await cwtStatusList(running.url, `${running.url}${path}`);
  assert.equal(headers.get('vary'), 'accept');
  assert.equal(header.get(1), -7);
  assert.equal(header.get(16), 'application/statuslist+cwt');
  assert.equal(typeof claims.get(65534), 'number');
  assert.equal((claims.get(65533) as Map<string, unknown>).get('bits'), 1);
  assert.equal(status(kept.idx), 0);
  assert.equal(status(revoked.idx), 1);

  const jwt = await running.get(path, {});
  assert.equal(jwt.headers.get('content-type'), 'application/statuslist+jwt');
  const fromJwt = getListFromStatusListJWT(jwt.text);
  assert.equal(fromJwt.getStatus(kept.idx), 0);
  assert.equal(fromJwt.getStatus(revoked.idx), 1);
  // Asked again at once (the JWT then answered before routing), the CWT is still the route's.
  const again = await fetch(`${running.url}${path}`, { headers: { accept: 'application/statuslist+cwt' } });
  assert.equal(again.headers.get('content-type'), 'application/statuslist+cwt');
});
