/**
 * A request waiting on the change feed is an answer being prepared, not a request arriving: the request
 * timeout does not cut it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyStore, startApp, testConfig } from '../helper.ts';

test('wait outlasts REQUEST_TIMEOUT_S: the request arrived whole at once', async (t) => {
  const store = await emptyStore(t, 'memory');
  const app = await startApp(t, store, testConfig({ REQUEST_TIMEOUT_S: '1', HEADERS_TIMEOUT_S: '1' }));
  const started = Date.now();
  const answer = await app.get('/v1/events?wait=3');
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { events: [], next: '0' });
  assert.ok(Date.now() - started >= 2900);
});
