import type { SqlClient, TransactionRunner } from '@sika/messaging';
import type { EventStore, EventStoreTransactions } from '../app/ports';
import type { StoredEvent } from '../domain/event';
import type { Scope } from '../domain/scope';

/**
 * The event store inside one transaction (the inbox's for a consumed message), so the event and its delivery
 * commit together.
 */
export class SqlEventStore implements EventStore {
  constructor(private readonly tx: SqlClient) {}

  async insertEvent(event: StoredEvent): Promise<boolean> {
    const inserted = await this.tx.$executeRaw`
      INSERT INTO events (id, source_message_id, merchant_id, livemode, type, payload, object_id, created_at)
      VALUES (${event.id}, ${event.sourceMessageId}, ${event.scope.merchantId}, ${event.scope.livemode},
              ${event.type}, ${event.payload}, ${event.objectId}, ${event.createdAt})
      ON CONFLICT DO NOTHING`;
    return inserted === 1;
  }

  async storeEvent(
    event: StoredEvent,
    delivery: { id: string; dueAt: Date },
  ): Promise<{ stored: boolean; scheduled: boolean }> {
    // One statement for the three steps: the delivery is made from the event the statement inserted, so a
    // message already stored (nothing inserted) schedules nothing.
    const [row] = await this.tx.$queryRaw<{ stored: boolean; scheduled: boolean }[]>`
      WITH event AS (
        INSERT INTO events (id, source_message_id, merchant_id, livemode, type, payload, object_id, created_at)
        VALUES (${event.id}, ${event.sourceMessageId}, ${event.scope.merchantId}, ${event.scope.livemode},
                ${event.type}, ${event.payload}, ${event.objectId}, ${event.createdAt})
        ON CONFLICT DO NOTHING
        RETURNING id, merchant_id, livemode
      ), delivery AS (
        INSERT INTO deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at)
        SELECT ${delivery.id}::text, event.id, p.id, 'pending', ${delivery.dueAt}::timestamptz, ${delivery.dueAt}::timestamptz
          FROM event
          JOIN endpoints p ON p.merchant_id = event.merchant_id AND p.livemode = event.livemode AND p.url IS NOT NULL
        RETURNING id
      )
      SELECT EXISTS (SELECT 1 FROM event) AS stored, EXISTS (SELECT 1 FROM delivery) AS scheduled`;
    if (row === undefined) throw new Error('storing a webhook event returned no row');
    return row;
  }

  async findDeliverableEndpoint(scope: Scope): Promise<{ id: string } | undefined> {
    const [endpoint] = await this.tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM endpoints
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND url IS NOT NULL`;
    return endpoint;
  }

  async scheduleDelivery(delivery: {
    id: string;
    eventId: string;
    endpointId: string;
    dueAt: Date;
  }): Promise<void> {
    // One statement, so two resends at once end as one delivery. attempt_count is kept, so the next claim
    // numbers its attempt after the earlier ones; the new next_attempt_at is no longer the lease of an
    // attempt still in flight, which therefore cannot overwrite the outcome of the resend's attempt.
    await this.tx.$executeRaw`
      INSERT INTO deliveries (id, event_id, endpoint_id, status, next_attempt_at, created_at)
      VALUES (${delivery.id}, ${delivery.eventId}, ${delivery.endpointId}, 'pending', ${delivery.dueAt}, ${delivery.dueAt})
      ON CONFLICT (event_id, endpoint_id) DO UPDATE
        SET status = 'pending', next_attempt_at = EXCLUDED.next_attempt_at, delivered_at = NULL`;
  }
}

/** Each run in its own transaction of `runner` (a client that wakes the delivery loop after commits). */
export function eventStoreTransactions(runner: TransactionRunner): EventStoreTransactions {
  return {
    run: async (work) => runner.$transaction((tx) => work(new SqlEventStore(tx))),
  };
}
