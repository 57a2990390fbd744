import { Counter, Histogram, type Registry } from 'prom-client';
import type { DeliveryObserver } from '../app/ports';

/**
 * Prometheus series of events stored (by type) and of webhook attempts: how many, with what result, and how long
 * receivers took.
 */
export function deliveryMetrics(registry: Registry): DeliveryObserver {
  const stored = new Counter({
    name: 'webhook_events_stored_total',
    help: 'Events stored for delivery, by type (a redelivered message is not counted again).',
    labelNames: ['type'],
    registers: [registry],
  });
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts, by result (delivered, retry_scheduled, failed for good).',
    labelNames: ['result'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds',
    help: 'Time from sending a webhook to its answer, timeout or failure.',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    eventStored(type) {
      stored.inc({ type });
    },
    attemptFinished(result, durationMs) {
      attempts.inc({ result });
      duration.observe(durationMs / 1000);
    },
  };
}
