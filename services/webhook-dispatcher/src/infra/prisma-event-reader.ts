import type { DeliveryView, EventFilter, EventReader, EventView } from '../app/ports';
import type { DeliveryStatus } from '../domain/retry-schedule';
import type { Scope } from '@sika/platform/pure';
import type { Prisma, PrismaClient } from '../generated/prisma/client';

const WITH_DELIVERY = {
  deliveries: { include: { attempts: { orderBy: { number: 'asc' } } } },
} as const satisfies Prisma.WebhookEventInclude;

type EventRow = Prisma.WebhookEventGetPayload<{ include: typeof WITH_DELIVERY }>;

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const satisfies readonly DeliveryStatus[];

export class PrismaEventReader implements EventReader {
  constructor(private readonly prisma: PrismaClient) {}

  async find(scope: Scope, eventId: string): Promise<EventView | undefined> {
    const row = await this.prisma.webhookEvent.findFirst({
      where: { id: eventId, merchantId: scope.merchantId, livemode: scope.livemode },
      include: WITH_DELIVERY,
    });
    return row === null ? undefined : eventFromRow(row);
  }

  async list(
    scope: Scope,
    page: { limit: number; after: { id: string; createdAt: Date } | null },
    filter: EventFilter,
  ): Promise<{ events: EventView[]; hasMore: boolean }> {
    const { after } = page;
    const { objectId, type, createdFrom, createdTo } = filter;
    const rows = await this.prisma.webhookEvent.findMany({
      where: {
        merchantId: scope.merchantId,
        livemode: scope.livemode,
        ...(objectId !== null && { objectId }),
        ...(type !== null && { type }),
        AND: [
          ...(createdFrom === null ? [] : [{ createdAt: { gte: createdFrom } }]),
          ...(createdTo === null ? [] : [{ createdAt: { lt: createdTo } }]),
          ...(after === null
            ? []
            : [
                {
                  OR: [
                    { createdAt: { lt: after.createdAt } },
                    { createdAt: after.createdAt, id: { lt: after.id } },
                  ],
                },
              ]),
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: page.limit + 1,
      include: WITH_DELIVERY,
    });
    return { events: rows.slice(0, page.limit).map(eventFromRow), hasMore: rows.length > page.limit };
  }
}

/** An event has at most one delivery: one endpoint per scope, never replaced, one delivery per endpoint. */
function eventFromRow(row: EventRow): EventView {
  const [delivery] = row.deliveries;
  return {
    id: row.id,
    type: row.type,
    createdAt: row.createdAt,
    payload: row.payload,
    delivery: delivery === undefined ? null : deliveryFromRow(delivery),
  };
}

function deliveryFromRow(row: EventRow['deliveries'][number]): DeliveryView {
  const status = DELIVERY_STATUSES.find((candidate) => candidate === row.status);
  if (status === undefined) throw new Error(`delivery ${row.id} has an unknown status`);
  return {
    status,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.nextAttemptAt,
    deliveredAt: row.deliveredAt,
    attempts: row.attempts.map((attempt) => ({
      number: attempt.number,
      attemptedAt: attempt.attemptedAt,
      url: attempt.url,
      statusCode: attempt.statusCode,
      error: attempt.error,
      durationMs: attempt.durationMs,
    })),
  };
}
