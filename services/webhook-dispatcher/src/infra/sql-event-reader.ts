import { sql, type Selectable } from 'kysely';
import type { Scope } from '@sika/platform/pure';
import type { DeliveryView, EventFilter, EventReader, EventView } from '../app/ports';
import type { DeliveryStatus } from '../domain/retry-schedule';
import type { DB } from '../generated/database';
import type { WebhooksDatabase } from './database';

type EventRow = Selectable<DB['events']>;
type DeliveryRow = Selectable<DB['deliveries']>;
type AttemptRow = Selectable<DB['delivery_attempts']>;

const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const satisfies readonly DeliveryStatus[];

export class SqlEventReader implements EventReader {
  constructor(private readonly db: WebhooksDatabase) {}

  async find(scope: Scope, eventId: string): Promise<EventView | undefined> {
    const row = await this.inScope(scope).where('id', '=', eventId).executeTakeFirst();
    if (row === undefined) return undefined;
    const [event] = await this.withDeliveries([row]);
    return event;
  }

  async list(
    scope: Scope,
    page: { limit: number; after: { id: string; createdAt: Date } | null },
    filter: EventFilter,
  ): Promise<{ events: EventView[]; hasMore: boolean }> {
    const { after } = page;
    const { objectId, type, createdFrom, createdTo } = filter;
    let query = this.inScope(scope);
    if (objectId !== null) query = query.where('object_id', '=', objectId);
    if (type !== null) query = query.where('type', '=', type);
    if (createdFrom !== null) query = query.where('created_at', '>=', createdFrom);
    if (createdTo !== null) query = query.where('created_at', '<', createdTo);
    if (after !== null) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    const events = await this.withDeliveries(rows.slice(0, page.limit));
    return { events, hasMore: rows.length > page.limit };
  }

  private inScope(scope: Scope) {
    return this.db
      .selectFrom('events')
      .selectAll()
      .where('merchant_id', '=', scope.merchantId)
      .where('livemode', '=', scope.livemode);
  }

  /** The events with their deliveries and attempts: one statement for each, whatever the number of events. */
  private async withDeliveries(events: EventRow[]): Promise<EventView[]> {
    if (events.length === 0) return [];
    const deliveries = await this.db
      .selectFrom('deliveries')
      .selectAll()
      .where('event_id', '=', sql<string>`any(${events.map((event) => event.id)}::text[])`)
      .execute();
    const attempts =
      deliveries.length === 0
        ? []
        : await this.db
            .selectFrom('delivery_attempts')
            .selectAll()
            .where('delivery_id', '=', sql<string>`any(${deliveries.map((delivery) => delivery.id)}::text[])`)
            .orderBy('number', 'asc')
            .execute();
    return events.map((event) => {
      // An event has at most one delivery: one endpoint per scope, never replaced, one delivery per endpoint.
      const delivery = deliveries.find((candidate) => candidate.event_id === event.id);
      return {
        id: event.id,
        type: event.type,
        createdAt: event.created_at,
        payload: event.payload,
        delivery:
          delivery === undefined
            ? null
            : deliveryFromRow(
                delivery,
                attempts.filter((attempt) => attempt.delivery_id === delivery.id),
              ),
      };
    });
  }
}

function deliveryFromRow(row: DeliveryRow, attempts: AttemptRow[]): DeliveryView {
  const status = DELIVERY_STATUSES.find((candidate) => candidate === row.status);
  if (status === undefined) throw new Error(`delivery ${row.id} has an unknown status`);
  return {
    status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    deliveredAt: row.delivered_at,
    attempts: attempts.map((attempt) => ({
      number: attempt.number,
      attemptedAt: attempt.attempted_at,
      url: attempt.url,
      statusCode: attempt.status_code,
      error: attempt.error,
      durationMs: attempt.duration_ms,
    })),
  };
}
