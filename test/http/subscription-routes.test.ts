/**
 * GET /api/v0/subscriptions on both stores: every subscription with where its events go (a webhook
 * without its query, or the feed), its state (active, paused, disabled by 410), its lag, failures
 * and dead letters; through the typed client too; the audit role needed where roles are enforced;
 * each reading audited as `audit-read`; never a secret.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LevApiError, type SubscriptionState, createLevClient, mockAuth } from '@lev-api/client';
import { CALLER, emptyStore, startApp, storeKinds, testConfig, trailEntries } from '../helper.ts';
import { FEED_READER, subscribedStates } from './subscription-states.ts';

const PATH = '/api/v0/subscriptions';
const AUDITOR = { ...CALLER, 'x-auth-username': 'subscriptions-auditor', 'x-auth-roles': 'audit' };

for (const kind of await storeKinds()) {
  describe(`the subscriptions' state on the ${kind} store`, () => {
    test('each subscription: its endpoint, state, lag, failures and dead letters, by client', async (t) => {
      const store = await emptyStore(t, kind);
      await subscribedStates(store);
      const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const response = await app.get(PATH, AUDITOR);
      assert.equal(response.status, 200);
      const listed = response.body as SubscriptionState[];
      const byClient = Object.fromEntries(listed.map((s) => [s.client, s]));
      assert.deepEqual(
        listed.map((s) => s.client),
        ['dvla-licences', 'dwp-bereavement', 'hmrc-pensions', 'nhs-records', 'old-council', FEED_READER],
        'every subscription, by client',
      );
      const events = ['death.registered'];
      assert.deepEqual(byClient['hmrc-pensions'], {
        client: 'hmrc-pensions',
        events,
        webhook: 'https://hooks.hmrc.example.gov.uk/lev',
        state: 'active',
        lag: 0,
        failures: 0,
        deadLetters: 0,
      });
      const failing = byClient['nhs-records'];
      assert.equal(
        failing.webhook,
        'https://nhs.example.gov.uk/receive/deaths?…',
        'the query, which may hold a token, is not shown',
      );
      assert.equal(failing.state, 'active');
      assert.equal(failing.failures, 2);
      assert.equal(failing.lastStatus, 500);
      assert.equal(failing.lastError, 'the receiver answered 500');
      assert.ok(Date.parse(failing.nextAttemptAt ?? '') > Date.now(), 'the next attempt is in the future');
      assert.ok(Date.parse(failing.failingSince ?? '') <= Date.now());
      assert.equal(failing.lag, 3);
      assert.ok(failing.oldestUndeliveredAt, 'the oldest undelivered event is dated');
      assert.equal(byClient['dvla-licences'].state, 'paused');
      assert.equal(byClient['dvla-licences'].lag, 3);
      const gone = byClient['old-council'];
      assert.equal(gone.state, 'disabled');
      assert.ok(gone.disabledAt, 'when it was disabled');
      assert.equal(gone.lastStatus, 410);
      const dead = byClient['dwp-bereavement'];
      assert.equal(dead.state, 'active');
      assert.equal(dead.deadLetters, 1);
      assert.equal(dead.lag, 2);
      assert.equal(dead.failures, 0);
      const reader = byClient[FEED_READER];
      assert.equal(reader.webhook, undefined, 'a feed reader has no webhook');
      assert.equal(reader.state, 'active');
      assert.equal(reader.lag, 2, 'read after the first of the three events');
      assert.ok(reader.lastReadAt);
      assert.equal(reader.deadLetters, 0);
      assert.doesNotMatch(response.text, /whsec_|s3cret/, 'no secret, no token');

      // The same through the typed client, as the pages read it.
      const lev = createLevClient({
        baseUrl: app.url,
        auth: mockAuth({ username: 'client-auditor', client: 'test-client', roles: ['audit'] }),
        retry: { attempts: 1 },
      });
      assert.deepEqual(await lev.subscriptions(), response.body);
    });

    test('needs the audit role where roles are enforced; each reading is audited as audit-read', async (t) => {
      const store = await emptyStore(t, kind);
      await subscribedStates(store);
      const app = await startApp(t, store, testConfig({ MOCK_ENFORCE_ROLES: 'true' }));
      const refused = await app.get(PATH, { ...CALLER, 'x-auth-roles': 'birth,full-details' });
      assert.equal(refused.status, 403);
      assert.deepEqual(refused.body, { code: 'Forbidden', message: "The subscriptions' state needs the 'audit' role" });
      assert.equal((await app.get(PATH, {})).status, 401);
      const lev = createLevClient({
        baseUrl: app.url,
        auth: mockAuth({ username: 'no-audit', client: 'test-client', roles: ['birth'] }),
        retry: { attempts: 1 },
      });
      await assert.rejects(lev.subscriptions(), (error) => error instanceof LevApiError && error.status === 403);

      assert.equal((await app.get(PATH, AUDITOR)).status, 200);
      await app.app.close();
      const readings = (await trailEntries(store)).filter((entry) => entry.path === PATH);
      assert.equal(readings.length, 1, 'the refused readings are not recorded as readings');
      assert.equal(readings[0].username, 'subscriptions-auditor');
      assert.equal(readings[0].operation, 'audit-read');
      assert.equal(readings[0].dataset, 'audit');
      assert.equal(readings[0].results, 6, 'how many subscriptions it listed');
    });
  });
}
