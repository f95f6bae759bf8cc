/**
 * The status list route answers the CWT form to a caller that asks for it (Accept:
 * application/statuslist+cwt), over real HTTP: a COSE_Sign1 the document signer signed (checked here
 * with node:crypto against the certificate in its x5chain, which the published IACA issued), holding
 * the same entries as the JWT form, a revoked entry among them. Without that Accept, the JWT as before.
 */
import assert from 'node:assert/strict';
import { X509Certificate, verify } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { test } from 'node:test';
import { cborDecode, cborEncode } from '@auth0/mdl/lib/cbor/index.js';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { emptyStore, startApp, testConfig } from '../helper.ts';

test('a status list in its CWT form, signed by the document signer, says what the JWT form says', async (t) => {
  const store = await emptyStore(t, 'memory');
  const running = await startApp(t, store, testConfig());
  const kept = await store.credentials.allocate('birth', 123456789);
  const revoked = await store.credentials.allocate('birth', 987654321);
  (store.credentials as unknown as { revoke(type: string, ids: number[]): void }).revoke('birth', [987654321]);
  assert.equal(kept.list, revoked.list);
  const path = `/v1/credentials/status/${kept.list}`;

  const response = await fetch(`${running.url}${path}`, { headers: { accept: 'application/statuslist+cwt' } });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), 'application/statuslist+cwt');
  assert.equal(response.headers.get('vary'), 'accept');
  const bytes = Buffer.from(await response.arrayBuffer());
  assert.equal(bytes[0], 0xd2, 'a tagged COSE_Sign1');
  const [protectedBytes, unprotected, payload, signature] = cborDecode(bytes.subarray(1)) as [
    Buffer,
    Map<number, unknown>,
    Buffer,
    Buffer,
  ];
  const header = cborDecode(protectedBytes) as Map<number, unknown>;
  assert.equal(header.get(1), -7);
  assert.equal(header.get(16), 'application/statuslist+cwt');

  const ds = new X509Certificate(unprotected.get(33) as Buffer);
  const { iacas } = (await running.get('/.well-known/iacas', {})).body as { iacas: { certificate: string }[] };
  const iaca = new X509Certificate(Buffer.from(iacas[0]?.certificate ?? '', 'base64'));
  assert.ok(ds.checkIssued(iaca) && ds.verify(iaca.publicKey), 'the signer chains to the published IACA');
  const toBeSigned = cborEncode(['Signature1', protectedBytes, Buffer.alloc(0), payload]);
  assert.ok(
    verify('sha256', toBeSigned, { key: ds.publicKey, dsaEncoding: 'ieee-p1363' }, signature),
    "the document signer's signature",
  );

  const claims = cborDecode(payload) as Map<number, unknown>;
  assert.equal(claims.get(2), `${running.url}${path}`);
  assert.equal(typeof claims.get(65534), 'number');
  const list = claims.get(65533) as Map<string, unknown>;
  assert.equal(list.get('bits'), 1);
  const bits = inflateSync(list.get('lst') as Buffer);
  const bit = (idx: number) => (bits[idx >> 3] >> (idx & 7)) & 1;
  assert.equal(bit(kept.idx), 0);
  assert.equal(bit(revoked.idx), 1);

  const jwt = await running.get(path, {});
  assert.equal(jwt.headers.get('content-type'), 'application/statuslist+jwt');
  const fromJwt = getListFromStatusListJWT(jwt.text);
  assert.equal(fromJwt.getStatus(kept.idx), 0);
  assert.equal(fromJwt.getStatus(revoked.idx), 1);
  // Asked again at once (the JWT then answered before routing), the CWT is still the route's.
  const again = await fetch(`${running.url}${path}`, { headers: { accept: 'application/statuslist+cwt' } });
  assert.equal(again.headers.get('content-type'), 'application/statuslist+cwt');
});
