import { sql, type Kysely, type Selectable } from 'kysely';
import { PreparedQuery, StatementBatcher } from '@sika/platform';
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

/** The batch of storeEvents, one array per column. */
interface StoreParams {
  ids: string[];
  sourceMessageIds: (string | null)[];
  merchantIds: string[];
  livemodes: boolean[];
  types: string[];
  payloads: string[];
  objectIds: (string | null)[];
  createdAts: Date[];
  deliveryIds: string[];
  deliveryCreatedAts: Date[];
  leaseUntils: Date[];
}

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
  /** The statement of storeEvents, compiled once (PreparedQuery): it runs for every event. */
  private readonly store: PreparedQuery<StoreParams, object>;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly queue: SqlDeliveryQueue,
    private readonly handOver: (claimed: ClaimedDelivery[]) => void,
  ) {
    this.batcher = new StatementBatcher((items) => this.storeEvents(items), { maxBatchSize: MAX_BATCH_SIZE });
    this.store = new PreparedQuery((param) => this.storeStatement(param));
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
    const rows = await this.store.execute(this.db, {
      ids: events.map((e) => e.id),
      sourceMessageIds: events.map((e) => e.sourceMessageId),
      merchantIds: events.map((e) => e.scope.merchantId),
      livemodes: events.map((e) => e.scope.livemode),
      types: events.map((e) => e.type),
      payloads: events.map((e) => e.payload),
      objectIds: events.map((e) => e.objectId),
      createdAts: events.map((e) => e.createdAt),
      deliveryIds: deliveries.map((d) => d.id),
      deliveryCreatedAts: deliveries.map((d) => d.createdAt),
      leaseUntils: deliveries.map((d) => d.leaseUntil),
    });
    // Left joins type every column nullable; a row with a delivery has its event and endpoint by the joins.
    return rows as StoredEventRow[];
  }

  /** Every step of storing a batch of events, as storeEvents describes, with the batch's columns as `param`s. */
  private storeStatement(param: <K extends keyof StoreParams>(name: K) => StoreParams[K]) {
    const received = sql<ReceivedRow>`unnest((SELECT ${param('ids')}::text[]),
        (SELECT ${param('sourceMessageIds')}::text[]),
        (SELECT ${param('merchantIds')}::text[]),
        (SELECT ${param('livemodes')}::boolean[]),
        (SELECT ${param('types')}::text[]), (SELECT ${param('payloads')}::text[]),
        (SELECT ${param('objectIds')}::text[]),
        (SELECT ${param('createdAts')}::timestamptz[]),
        (SELECT ${param('deliveryIds')}::text[]),
        (SELECT ${param('deliveryCreatedAts')}::timestamptz[]),
        (SELECT ${param('leaseUntils')}::timestamptz[])) WITH ORDINALITY`;
    return this.db
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
      .orderBy('r.n');
  }
}
