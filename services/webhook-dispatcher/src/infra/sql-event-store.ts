import type { TransactionRunner } from '@sika/messaging';
import type { Scope } from '@sika/platform/pure';
import type { EventStore, EventStoreTransactions } from '../app/ports';
import type { StoredEvent } from '../domain/event';
import type { Tx } from './database';

/** The event store in a transaction (resends, test events). */
export class SqlEventStore implements EventStore {
  constructor(private readonly tx: Tx) {}

  async insertEvent(event: StoredEvent): Promise<boolean> {
    const { numInsertedOrUpdatedRows } = await this.tx
      .insertInto('events')
      .values({
        id: event.id,
        source_message_id: event.sourceMessageId,
        merchant_id: event.scope.merchantId,
        livemode: event.scope.livemode,
        type: event.type,
        payload: event.payload,
        object_id: event.objectId,
        created_at: event.createdAt,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirstOrThrow();
    return numInsertedOrUpdatedRows === 1n;
  }

  async findDeliverableEndpoint(scope: Scope): Promise<{ id: string } | undefined> {
    return this.tx
      .selectFrom('endpoints')
      .select('id')
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode)
      .where('url', 'is not', null)
      .executeTakeFirst();
  }

  async undeliveredEvents(scope: Scope, endpointId: string, since: Date): Promise<string[]> {
    const rows = await this.tx
      .selectFrom('events as e')
      .select('e.id')
      .where('e.merchant_id', '=', scope.merchantId)
      .where('e.livemode', '=', scope.livemode)
      .where('e.created_at', '>=', since)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('deliveries as d')
              .select((eb) => eb.lit(1).as('one'))
              .whereRef('d.event_id', '=', 'e.id')
              .where('d.endpoint_id', '=', endpointId),
          ),
        ),
      )
      .orderBy('e.created_at')
      .orderBy('e.id')
      .execute();
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
    await this.tx
      .insertInto('deliveries')
      .values({
        id: delivery.id,
        event_id: delivery.eventId,
        endpoint_id: delivery.endpointId,
        status: 'pending',
        next_attempt_at: delivery.dueAt,
        created_at: delivery.dueAt,
      })
      .onConflict((oc) =>
        oc.columns(['event_id', 'endpoint_id']).doUpdateSet((eb) => ({
          status: 'pending',
          next_attempt_at: eb.ref('excluded.next_attempt_at'),
          delivered_at: null,
        })),
      )
      .execute();
  }

  async countManualSend(endpointId: string, windowIndex: number): Promise<number> {
    const row = await this.tx
      .updateTable('endpoints')
      .set((eb) => ({
        manual_sends: eb
          .case()
          .when('manual_sends_window', '=', BigInt(windowIndex))
          .then(eb('manual_sends', '+', eb.lit(1)))
          .else(eb.lit(1))
          .end(),
        manual_sends_window: BigInt(windowIndex),
      }))
      .where('id', '=', endpointId)
      .returning('manual_sends')
      .executeTakeFirst();
    if (row === undefined) throw new Error(`endpoint ${endpointId} vanished while sending to it`);
    return row.manual_sends;
  }
}

/** Each run in its own transaction of `runner` (one whose commits wake the delivery loop). */
export function eventStoreTransactions(runner: TransactionRunner<Tx>): EventStoreTransactions {
  return {
    run: async (work) => runner.transact((tx) => work(new SqlEventStore(tx))),
  };
}
