import type { EventStore } from '../app/ports';
import type { StoredEvent } from '../domain/event';
import type { Scope } from '../domain/scope';
import type { TransactionClient } from '../generated/prisma/internal/prismaNamespace';

/** The event store inside one transaction (the inbox's), so the event and its delivery commit with it. */
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
    await this.tx.webhookDelivery.create({
      data: {
        id: delivery.id,
        eventId: delivery.eventId,
        endpointId: delivery.endpointId,
        status: 'pending',
        nextAttemptAt: delivery.dueAt,
        createdAt: delivery.dueAt,
      },
    });
  }
}
