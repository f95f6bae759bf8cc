/**
 * Subscriptions in each state the audit role's list tells apart, set in a store's delivery state
 * directly (no receiver, no worker): a feed reader, a webhook up to date, one failing, one paused,
 * one disabled by 410 Gone, and one with a dead letter.
 */
import { loadSources } from '../../src/load/loader.ts';
import { newSecret } from '../../src/webhooks/signing.ts';
import { deaths } from '../death-source.ts';
import type { TestStore } from '../helper.ts';
import { builtInType } from '../record-types.ts';

export const WEBHOOKS = {
  'hmrc-pensions': 'https://hooks.hmrc.example.gov.uk/lev',
  'nhs-records': 'https://nhs.example.gov.uk/receive/deaths?token=s3cret',
  'dvla-licences': 'https://dvla.example.gov.uk/lev-events',
  'old-council': 'https://council.example.gov.uk/gone',
  'dwp-bereavement': 'https://dwp.example.gov.uk/hooks/lev',
} as const;
export const FEED_READER = 'tell-us-once';

/** Subscribes the clients, commits three death events after their webhooks were set, and puts each in its state. */
export async function subscribedStates(store: TestStore): Promise<void> {
  const events = ['death.registered'];
  await store.subscriptions.add({ client: FEED_READER, events, fields: [] });
  for (const [client, url] of Object.entries(WEBHOOKS)) {
    await store.subscriptions.add({ client, events, fields: [] });
    await store.webhooks.setEndpoint(client, { url }, { secret: newSecret() });
  }
  await store.subscriptions.setPaused('dvla-licences', true);
  const { head: before } = await store.events.bounds(new Date(0));
  await loadSources(store.writer, builtInType('death'), [deaths([990000001, 990000002, 990000003])]);
  const { head } = await store.events.bounds(new Date(0));
  await store.subscriptions.acknowledge(FEED_READER, before + 1);

  const leases = await store.webhooks.claim('fixture', 60_000, 10);
  const leaseOf = (client: string) => {
    const lease = leases.find((l) => l.endpoint.client === client);
    if (!lease) throw new Error(`no lease of ${client}`);
    return lease;
  };
  const first = before + 1;
  await store.webhooks.record(leaseOf('hmrc-pensions'), { kind: 'delivered', position: head }, 60_000);
  for (let i = 0; i < 2; i++) {
    await store.webhooks.record(
      leaseOf('nhs-records'),
      { kind: 'retry', position: first, delayMs: 3_600_000, status: 500, error: 'the receiver answered 500' },
      60_000,
    );
  }
  await store.webhooks.record(leaseOf('old-council'), { kind: 'gone', position: first, status: 410 }, 60_000);
  await store.webhooks.record(
    leaseOf('dwp-bereavement'),
    { kind: 'dead', position: first, attempts: 20, status: 503, error: 'the receiver answered 503' },
    60_000,
  );
  for (const lease of leases) await store.webhooks.release(lease);
}
