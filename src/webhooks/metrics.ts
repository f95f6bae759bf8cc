/**
 * Delivery metrics per subscription (a bounded label: subscriptions are the operator's), in the
 * registry the process serves at /metrics: delivered, failed attempts, retrying, dead-lettered,
 * the oldest undelivered event's age (read from the store when scraped) and the latency from an
 * event's commit to its receiver's 2xx.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { WebhookStore } from '../model/webhooks.ts';

export interface DeliveryMetrics {
  attempted(subscription: string, ok: boolean, seconds: number, committedAt: string): void;
  outcome(subscription: string, kind: 'delivered' | 'retry' | 'dead' | 'gone'): void;
}

export function deliveryMetrics(registry: Registry, store: WebhookStore): DeliveryMetrics {
  const labelNames = ['subscription'] as const;
  const registers = [registry];
  const delivered = new Counter({
    name: 'lev_webhook_delivered_total',
    help: 'Events a receiver took (2xx)',
    labelNames,
    registers,
  });
  const failed = new Counter({
    name: 'lev_webhook_failed_attempts_total',
    help: 'Attempts that got no 2xx',
    labelNames,
    registers,
  });
  const retrying = new Counter({
    name: 'lev_webhook_retries_scheduled_total',
    help: 'Failed attempts followed by a scheduled retry',
    labelNames,
    registers,
  });
  const dead = new Counter({
    name: 'lev_webhook_dead_lettered_total',
    help: 'Events dead-lettered after their last attempt',
    labelNames,
    registers,
  });
  const request = new Histogram({
    name: 'lev_webhook_request_seconds',
    help: 'Time of one POST to a receiver',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers,
  });
  const latency = new Histogram({
    name: 'lev_webhook_delivery_latency_seconds',
    help: "From an event's commit to its receiver's 2xx",
    labelNames,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60, 300, 3600],
    registers,
  });
  new Gauge({
    name: 'lev_webhook_oldest_undelivered_seconds',
    help: 'Age of the oldest event not yet delivered (0 when none waits)',
    labelNames,
    registers,
    async collect() {
      this.reset();
      const now = Date.now();
      for (const endpoint of await store.list().catch(() => [])) {
        this.set(
          { subscription: endpoint.client },
          endpoint.oldestUndeliveredAt ? (now - Date.parse(endpoint.oldestUndeliveredAt)) / 1000 : 0,
        );
      }
    },
  });
  new Gauge({
    name: 'lev_webhook_retrying',
    help: 'Whether the event at the head of a subscription is waiting for a retry (1) or not (0)',
    labelNames,
    registers,
    async collect() {
      this.reset();
      for (const endpoint of await store.list().catch(() => []))
        this.set({ subscription: endpoint.client }, endpoint.attempts > 0 ? 1 : 0);
    },
  });
  return {
    attempted(subscription, ok, seconds, committedAt) {
      request.observe({ subscription }, seconds);
      if (ok) {
        delivered.inc({ subscription });
        latency.observe({ subscription }, Math.max(0, (Date.now() - Date.parse(committedAt)) / 1000));
      } else failed.inc({ subscription });
    },
    outcome(subscription, kind) {
      if (kind === 'retry') retrying.inc({ subscription });
      if (kind === 'dead') dead.inc({ subscription });
    },
  };
}
