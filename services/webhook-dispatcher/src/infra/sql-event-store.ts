import type { SqlClient, TransactionRunner } from '@sika/messaging';
import type { EventStore, EventStoreTransactions } from '../app/ports';
import type { StoredEvent } from '../domain/event';
import type { Scope } from '@sika/platform/pure';

/** The event store in a transaction (resends, test events). */
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

  async findDeliverableEndpoint(scope: Scope): Promise<{ id: string } | undefined> {
    const [endpoint] = await this.tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM endpoints
       WHERE merchant_id = ${scope.merchantId} AND livemode = ${scope.livemode} AND url IS NOT NULL`;
    return endpoint;
  }

  async undeliveredEvents(scope: Scope, endpointId: string, since: Date): Promise<string[]> {
    const rows = await this.tx.$queryRaw<{ id: string }[]>`
      SELECT e.id FROM events e
       WHERE e.merchant_id = ${scope.merchantId} AND e.livemode = ${scope.livemode} AND e.created_at >= ${since}
         AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id AND d.endpoint_id = ${endpointId})
       ORDER BY e.created_at, e.id`;
    return rows.map((row) => row.id);
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

  async countManualSend(endpointId: string, windowIndex: number): Promise<number> {
    const [row] = await this.tx.$queryRaw<{ manual_sends: number }[]>`
      UPDATE endpoints
         SET manual_sends = CASE WHEN manual_sends_window = ${windowIndex} THEN manual_sends + 1 ELSE 1 END,
             manual_sends_window = ${windowIndex}
       WHERE id = ${endpointId}
      RETURNING manual_sends`;
    if (row === undefined) throw new Error(`endpoint ${endpointId} vanished while sending to it`);
    return row.manual_sends;
  }
}

/** Each run in its own transaction of `runner` (one whose commits wake the delivery loop). */
export function eventStoreTransactions(runner: TransactionRunner): EventStoreTransactions {
  return {
    run: async (work) => runner.$transaction((tx) => work(new SqlEventStore(tx))),
  };
}
