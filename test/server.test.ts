/**
 * serve(): the record types it is given, not the built-in ones, are what it serves throughout: the
 * routes (buildApp's `descriptions`), the mock records and webhook delivery, which renders each
 * event's source from the descriptions it was given and fails on a type it was not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FULL_ID } from '../src/mock/dataset.ts';
import { serve } from '../src/server.ts';
import { testfixture } from './fixtures/testfixture/description.ts';
import { fixtureScenarios } from './fixtures/testfixture/scenarios.ts';
import { CALLER, testConfig } from './helper.ts';
import { startReceiver, until } from './webhooks/receiver.ts';

test('a list of record types given to serve reaches the routes and webhook delivery', async (t) => {
  const receiver = await startReceiver(t);
  // The mock webhook reads from the head at start: the events pushed are the live mock's registrations, one a second.
  const config = testConfig({
    MOCK_WEBHOOKS: receiver.url,
    WEBHOOK_ALLOW_HTTP: 'loopback',
    MOCK_EVENT_INTERVAL_S: '1',
  });
  // The fixture's type alone: none of the built-in ones is served, so none can stand in for it.
  const app = await serve(config, { descriptions: [testfixture], scenarios: [fixtureScenarios] });
  t.after(() => app.close());

  const found = await app.inject({
    url: `/v1/registration/testfixture/${FULL_ID}`,
    headers: { ...CALLER, 'x-auth-roles': 'testfixture' },
  });
  assert.equal(found.statusCode, 200, found.body);
  assert.equal(
    (await app.inject({ url: `/v1/registration/birth/${FULL_ID}`, headers: { ...CALLER, 'x-auth-roles': 'birth' } }))
      .statusCode,
    404,
  );

  const pushed = () =>
    receiver.received.map((r) => JSON.parse(r.body) as { type: string; subject: string; source: string });
  await until(() => pushed().length > 0, 'an event of the live mock pushed');
  const [event] = pushed();
  assert.equal(event.type, 'testfixture.registered', JSON.stringify(event));
  assert.equal(event.source, '/v1/registration/testfixture', JSON.stringify(event));
  const registered = await app.inject({
    url: `/v1/registration/testfixture/${event.subject}`,
    headers: { ...CALLER, 'x-auth-roles': 'testfixture' },
  });
  assert.equal(registered.statusCode, 200, registered.body);
});
