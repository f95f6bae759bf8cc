/**
 * Under concurrent load, the audit trail holds exactly one entry per data
 * response (200), none for the rest, and its chain stays intact.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import autocannon from 'autocannon';
import { CALLER, filledStore, startApp, storeKinds, trailEntries, verifyTrail } from '../helper.ts';
import { searchableScenarios as scenarios } from '../record-types.ts';

for (const kind of await storeKinds()) {
  test(`audit entries equal data responses after a load test (${kind} store)`, async (t) => {
    const store = await filledStore(t, kind);
    const app = await startApp(t, store);
    const searches = scenarios.map(({ type, search }) => `/v1/registration/${type}?${new URLSearchParams(search)}`);
    const lookups = scenarios.flatMap(({ type, id }) => [
      `/v1/registration/${type}/${id}`,
      `/v1/registration/${type}/${id + 7_000_000}`,
    ]);
    const paths = [...searches, ...lookups, '/v1/registration/birth/not-a-number'];
    const result = await autocannon({
      url: app.url,
      connections: 20,
      amount: 3000,
      headers: CALLER,
      requests: paths.map((path) => ({ method: 'GET', path })),
    });
    assert.equal(result.errors, 0);
    assert.equal(result['5xx'], 0);
    assert.ok(
      result['2xx'] > 1000 && result.non2xx > 100,
      `a mix of answers: ${result['2xx']} 2xx, ${result.non2xx} others`,
    );
    assert.equal((await trailEntries(store)).length, result['2xx']);
    assert.deepEqual(await verifyTrail(store), { ok: true, entries: result['2xx'] });
  });
}
