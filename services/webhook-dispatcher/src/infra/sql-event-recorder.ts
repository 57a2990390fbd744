import { sql, type Kysely, type Selectable } from 'kysely';
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

/** An event and its delivery as the statement that stores them reads them. */
type ReceivedRow = Pick<
  Selectable<DB['events']>,
  'id' | 'source_message_id' | 'merchant_id' | 'livemode' | 'type' | 'payload' | 'object_id' | 'created_at'
> & { delivery_id: string; delivery_created_at: Date; lease_until: Date; n: bigint };

const EVENT_COLUMNS = [
  'id',
  'source_message_id',
  'merchant_id',
  'livemode',
  'type',
  'payload',
  'object_id',
  'created_at',
] as const;

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
    const received = sql<ReceivedRow>`unnest((SELECT ${events.map((e) => e.id)}::text[]),
        (SELECT ${events.map((e) => e.sourceMessageId)}::text[]),
        (SELECT ${events.map((e) => e.scope.merchantId)}::text[]),
        (SELECT ${events.map((e) => e.scope.livemode)}::boolean[]),
        (SELECT ${events.map((e) => e.type)}::text[]), (SELECT ${events.map((e) => e.payload)}::text[]),
        (SELECT ${events.map((e) => e.objectId)}::text[]),
        (SELECT ${events.map((e) => e.createdAt)}::timestamptz[]),
        (SELECT ${deliveries.map((d) => d.id)}::text[]),
        (SELECT ${deliveries.map((d) => d.createdAt)}::timestamptz[]),
        (SELECT ${deliveries.map((d) => d.leaseUntil)}::timestamptz[])) WITH ORDINALITY`;
    const rows = await this.db
      .with('received', (db) =>
        db
          .selectFrom(
            received.as<'r'>(
              sql`r (id, source_message_id, merchant_id, livemode, type, payload, object_id, created_at, delivery_id, delivery_created_at, lease_until, n)`,
            ),
          )
          .selectAll(),
      )
      .with('event', (db) =>
        db
          .insertInto('events')
          .columns(EVENT_COLUMNS)
          .expression((eb) => eb.selectFrom('received').select(EVENT_COLUMNS).orderBy('n'))
          .onConflict((conflict) => conflict.doNothing())
          .returning(['id', 'merchant_id', 'livemode', 'payload']),
      )
      .with('endpoint', (db) =>
        db
          .selectFrom('event')
          .innerJoin('endpoints as p', (join) =>
            join
              .onRef('p.merchant_id', '=', 'event.merchant_id')
              .onRef('p.livemode', '=', 'event.livemode')
              .on('p.url', 'is not', null),
          )
          .select([
            'event.id as event_id',
            'p.id',
            'p.url',
            'p.livemode',
            'p.secret_ciphertext',
            'p.previous_secret_ciphertext',
            'p.previous_secret_expires_at',
          ]),
      )
      .with('delivery', (db) =>
        db
          .insertInto('deliveries')
          .columns([
            'id',
            'event_id',
            'endpoint_id',
            'status',
            'attempt_count',
            'next_attempt_at',
            'created_at',
          ])
          .expression((eb) =>
            eb
              .selectFrom('endpoint')
              .innerJoin('received as r', 'r.id', 'endpoint.event_id')
              .select([
                'r.delivery_id',
                'endpoint.event_id',
                'endpoint.id',
                sql.lit('pending').as('status'),
                sql.lit(1).as('attempt_count'),
                'r.lease_until',
                'r.delivery_created_at',
              ]),
          )
          .returning(['id', 'event_id', 'attempt_count']),
      )
      .selectFrom('received as r')
      .leftJoin('event', 'event.id', 'r.id')
      .leftJoin('delivery', 'delivery.event_id', 'r.id')
      .leftJoin('endpoint', 'endpoint.event_id', 'r.id')
      .select((eb) => [
        eb('event.id', 'is not', null).as('stored'),
        'delivery.id as delivery_id',
        'delivery.attempt_count',
        'event.id as event_id',
        'event.payload',
        'endpoint.id as endpoint_id',
        'endpoint.url',
        'endpoint.livemode',
        'endpoint.secret_ciphertext',
        eb
          .case()
          .when('endpoint.previous_secret_expires_at', '>', eb.ref('r.delivery_created_at'))
          .then(eb.ref('endpoint.previous_secret_ciphertext'))
          .end()
          .as('previous_secret_ciphertext'),
        'endpoint.previous_secret_expires_at',
      ])
      .orderBy('r.n')
      .execute();
    // Left joins type every column nullable; a row with a delivery has its event and endpoint by the joins.
    return rows as StoredEventRow[];
  }
}
