import { Counter, Histogram, type Registry } from 'prom-client';
import { sql, type Kysely } from 'kysely';
import { createScrapedGauges, type Metrics } from '@sika/platform';
import type { DeliveryObserver } from '../app/ports';
import type { DB } from '../generated/database';

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

/**
 * `webhook_deliveries_pending` and `webhook_oldest_pending_delivery_age_seconds`, read on each scrape from the
 * pending deliveries, which the partial index `deliveries_due_idx` keeps apart from the delivered history.
 */
export function pendingDeliveryGauges(metrics: Metrics, db: Kysely<DB>): void {
  createScrapedGauges(metrics, async () => {
    const row = await db
      .selectFrom('deliveries')
      .select([
        sql<number>`count(*)::int`.as('pending'),
        sql<number>`COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8`.as('age'),
      ])
      // A literal, as the partial index deliveries_due_idx has it, so that a generic plan may use the index.
      .where('status', '=', sql.lit('pending'))
      .executeTakeFirst();
    return row ?? { pending: 0, age: 0 };
  }, [
    {
      name: 'webhook_deliveries_pending',
      help: 'Webhook deliveries not yet delivered nor failed for good.',
      key: 'pending',
    },
    {
      name: 'webhook_oldest_pending_delivery_age_seconds',
      help: 'Age of the oldest pending webhook delivery; 0 when none waits.',
      key: 'age',
    },
  ]);
}
