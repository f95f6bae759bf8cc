/**
 * The typed client's createOffer against the running mock: the offer it returns is picked up by a
 * wallet (`Openid4vciClient`), with its transaction code; a caller without the `credentials` role,
 * a blocked registration and an unknown format are LevApiErrors with the service's code.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LevApiError, createLevClient, mockAuth } from '@lev-api/client';
import { filledStore, startApp, testConfig } from '../../helper.ts';
import { VERIFIERS, newWallet, pickUp } from '../../http/wallet/wallet.ts';

test('createOffer: an offer a wallet picks up, and the refusals as LevApiErrors', async (t) => {
  const store = await filledStore(t, 'memory');
  const { url } = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
  const as = (roles: string[]) =>
    createLevClient({ baseUrl: url, auth: mockAuth({ username: 'offer-test', client: 'client-tests', roles }) });
  const department = as(['credentials', 'death']);

  const offer = await department.createOffer('death', 123456789, { format: 'dc+sd-jwt', txCode: true });
  assert.match(offer.offer, /^openid-credential-offer:\/\//);
  assert.match(offer.txCode ?? '', /^\d{6}$/);
  const wallet = newWallet();
  const { credentials } = await pickUp(wallet, offer.offer, offer.txCode);
  await VERIFIERS['dc+sd-jwt'](credentials[0], { issuer: url, type: 'death', recordId: 123456789, wallet });

  const refused = async (call: Promise<unknown>, status: number, code: string) =>
    assert.rejects(
      call,
      (error: LevApiError) => error instanceof LevApiError && error.status === status && error.code === code,
    );
  await refused(as(['death']).createOffer('death', 123456789, { format: 'dc+sd-jwt' }), 403, 'Forbidden');
  await refused(department.createOffer('death', 999999020, { format: 'dc+sd-jwt' }), 409, 'Blocked');
  await refused(department.createOffer('death', 123456789, { format: 'pdf' as 'dc+sd-jwt' }), 400, 'BadRequest');
});
