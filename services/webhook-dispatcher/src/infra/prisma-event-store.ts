import type { TransactionRunner } from '@sika/messaging';
import type { EventStore, EventStoreTransactions } from '../app/ports';
import type { StoredEvent } from '../domain/event';
import type { Scope } from '../domain/scope';
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace';

/**
 * The event store inside one transaction (the inbox's for a consumed message), so the event and its delivery
 * commit together.
 */
export class PrismaEventStore implements EventStore {
  constructor(private readonly tx: TransactionClient) {}

  async insertEvent(event: StoredEvent): Promise<boolean> {
    const { count } = await this.tx.webhookEvent.createMany({
      data: [
        {
          id: event.id,
          sourceMessageId: event.sourceMessageId,
          merchantId: event.scope.merchantId,
          livemode: event.scope.livemode,
          type: event.type,
          payload: event.payload,
          objectId: event.objectId,
          createdAt: event.createdAt,
        },
      ],
      skipDuplicates: true,
    });
    return count === 1;
  }

  async findDeliverableEndpoint(scope: Scope): Promise<{ id: string } | undefined> {
    const endpoint = await this.tx.webhookEndpoint.findFirst({
      where: { merchantId: scope.merchantId, livemode: scope.livemode, url: { not: null } },
      select: { id: true },
    });
    return endpoint ?? undefined;
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
export function eventStoreTransactions(runner: TransactionRunner<TransactionClient>): EventStoreTransactions {
  return {
    run: async (work) => runner.$transaction((tx) => work(new PrismaEventStore(tx))),
  };
}
