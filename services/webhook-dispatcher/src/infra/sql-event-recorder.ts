import { sql, type Kysely } from 'kysely';
import { StatementBatcher } from '@sika/platform';
import type { ClaimedDelivery, EventRecorder, NewDelivery } from '../app/ports';
import type { StoredEvent } from '../domain/event';
import type { DB } from '../generated/database';
import type { ClaimedRow, SqlDeliveryQueue } from './sql-delivery-queue';

/** An event to store, with the delivery to schedule for it. */
interface EventToStore {
  event: StoredEvent;
  delivery: NewDelivery;
}

/** What storing one event did: `stored` false when its source message had one already. */
type StoredEventRow = { stored: boolean } & (ClaimedRow | { delivery_id: null });

/** Events one statement stores at most. */
const MAX_BATCH_SIZE = 100;

/**
 * The consumers' events: those that arrive in the same turn of the event loop (the messages of one read of
 * the broker's socket) are stored by one statement that commits by itself (StatementBatcher), each with its
 * delivery when its scope's endpoint has a URL. Once that statement committed, the deliveries it scheduled go
 * to this process's worker already claimed, so their first attempts need no claim.
 */
export class SqlEventRecorder implements EventRecorder {
  private readonly batcher: StatementBatcher<EventToStore, StoredEventRow>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly queue: SqlDeliveryQueue,
    private readonly handOver: (claimed: ClaimedDelivery[]) => void,
  ) {
    this.batcher = new StatementBatcher((items) => this.storeEvents(items), { maxBatchSize: MAX_BATCH_SIZE });
  }

  async storeEvent(
    event: StoredEvent,
    delivery: NewDelivery,
  ): Promise<{ stored: boolean; scheduled: boolean }> {
    const row = await this.batcher.write({ event, delivery });
    if (row.delivery_id === null) return { stored: row.stored, scheduled: false };
    this.handOver(await this.queue.deliveriesOf([row], delivery.createdAt, delivery.leaseUntil));
    return { stored: row.stored, scheduled: true };
  }

  /**
   * One statement for every step of every item, a row per item in order. An event whose source message has
   * one stored already (or has one earlier in the same statement) is not inserted, so nothing is scheduled for
   * it. A delivery is written as a claim writes it (first attempt counted, due at the end of the lease), and
   * comes back as a claim returns it; until the lease ends, no other worker takes it.
   */
  private async storeEvents(items: readonly EventToStore[]): Promise<StoredEventRow[]> {
    const events = items.map((item) => item.event);
    const deliveries = items.map((item) => item.delivery);
    // Each array is unnested from a sub-select so that the statement gets one generic plan (see payments'
    // SqlPaymentStore).
    const { rows } = await sql<StoredEventRow>`
      WITH received AS (
        SELECT * FROM unnest((SELECT ${events.map((e) => e.id)}::text[]),
            (SELECT ${events.map((e) => e.sourceMessageId)}::text[]),
            (SELECT ${events.map((e) => e.scope.merchantId)}::text[]),
            (SELECT ${events.map((e) => e.scope.livemode)}::boolean[]),
            (SELECT ${events.map((e) => e.type)}::text[]), (SELECT ${events.map((e) => e.payload)}::text[]),
            (SELECT ${events.map((e) => e.objectId)}::text[]),
            (SELECT ${events.map((e) => e.createdAt)}::timestamptz[]),
            (SELECT ${deliveries.map((d) => d.id)}::text[]),
            (SELECT ${deliveries.map((d) => d.createdAt)}::timestamptz[]),
            (SELECT ${deliveries.map((d) => d.leaseUntil)}::timestamptz[]))
          WITH ORDINALITY AS r (id, source_message_id, merchant_id, livemode, type, payload, object_id, created_at,
            delivery_id, delivery_created_at, lease_until, n)
      ), event AS (
        INSERT INTO events (id, source_message_id, merchant_id, livemode, type, payload, object_id, created_at)
        SELECT id, source_message_id, merchant_id, livemode, type, payload, object_id, created_at
          FROM received ORDER BY n
        ON CONFLICT DO NOTHING
        RETURNING id, merchant_id, livemode, payload
      ), endpoint AS (
        SELECT event.id AS event_id, p.id, p.url, p.livemode, p.secret_ciphertext, p.previous_secret_ciphertext,
               p.previous_secret_expires_at
          FROM event
          JOIN endpoints p ON p.merchant_id = event.merchant_id AND p.livemode = event.livemode AND p.url IS NOT NULL
      ), delivery AS (
        INSERT INTO deliveries (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, created_at)
        SELECT r.delivery_id, endpoint.event_id, endpoint.id, 'pending', 1, r.lease_until, r.delivery_created_at
          FROM endpoint JOIN received r ON r.id = endpoint.event_id
        RETURNING id, event_id, attempt_count
      )
      SELECT event.id IS NOT NULL AS stored,
             delivery.id AS delivery_id, delivery.attempt_count, event.id AS event_id, event.payload,
             endpoint.id AS endpoint_id, endpoint.url, endpoint.livemode, endpoint.secret_ciphertext,
             CASE WHEN endpoint.previous_secret_expires_at > r.delivery_created_at
                  THEN endpoint.previous_secret_ciphertext END AS previous_secret_ciphertext,
             endpoint.previous_secret_expires_at
        FROM received r
        LEFT JOIN event ON event.id = r.id
        LEFT JOIN delivery ON delivery.event_id = r.id
        LEFT JOIN endpoint ON endpoint.event_id = r.id
       ORDER BY r.n`.execute(this.db);
    return rows;
  }
}
