import { notifyingAfterCommit, type SqlClient, type TransactionRunner } from '@sika/messaging';
import type { SqlTransaction } from '@sika/platform';
import type { ClaimedDelivery, EventStore, EventStoreTransactions } from '../app/ports';
import type { StoredEvent } from '../domain/event';
import type { Scope } from '../domain/scope';
import type { OpenedSecrets } from './opened-secrets';
import { SqlDeliveryQueue, type ClaimedRow } from './sql-delivery-queue';

/** A transaction of the event store, with the deliveries it claimed for this process to attempt once it commits. */
export interface EventStoreTransaction extends SqlClient {
  readonly claimed: ClaimedDelivery[];
}

/**
 * The event store on one connection: in a transaction (resends, test events), or for a consumed message with
 * each statement committing by itself, storeEvent's one statement writing the event and its delivery together.
 */
export class SqlEventStore implements EventStore {
  constructor(
    private readonly tx: EventStoreTransaction,
    private readonly secrets: OpenedSecrets,
  ) {}

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
    delivery: { id: string; createdAt: Date; leaseUntil: Date },
  ): Promise<{ stored: boolean; scheduled: boolean }> {
    // One statement for the three steps: the delivery is made from the event the statement inserted, so a
    // message already stored (nothing inserted) schedules nothing. The delivery is written as a claim writes
    // it (first attempt counted, due at the end of the lease), and comes back as a claim returns it, so the
    // worker needs no claim round trip; until the lease ends, no other worker takes it.
    const [row] = await this.tx.$queryRaw<({ stored: boolean } & (ClaimedRow | { delivery_id: null }))[]>`
      WITH event AS (
        INSERT INTO events (id, source_message_id, merchant_id, livemode, type, payload, object_id, created_at)
        VALUES (${event.id}, ${event.sourceMessageId}, ${event.scope.merchantId}, ${event.scope.livemode},
                ${event.type}, ${event.payload}, ${event.objectId}, ${event.createdAt})
        ON CONFLICT DO NOTHING
        RETURNING id, merchant_id, livemode, payload
      ), endpoint AS (
        SELECT p.id, p.url, p.livemode, p.secret_ciphertext, p.previous_secret_ciphertext, p.previous_secret_expires_at
          FROM event
          JOIN endpoints p ON p.merchant_id = event.merchant_id AND p.livemode = event.livemode AND p.url IS NOT NULL
      ), delivery AS (
        INSERT INTO deliveries (id, event_id, endpoint_id, status, attempt_count, next_attempt_at, created_at)
        SELECT ${delivery.id}::text, event.id, endpoint.id, 'pending', 1, ${delivery.leaseUntil}::timestamptz,
               ${delivery.createdAt}::timestamptz
          FROM event, endpoint
        RETURNING id, attempt_count
      )
      SELECT EXISTS (SELECT 1 FROM event) AS stored,
             delivery.id AS delivery_id, delivery.attempt_count, event.id AS event_id, event.payload,
             endpoint.id AS endpoint_id, endpoint.url, endpoint.livemode, endpoint.secret_ciphertext,
             CASE WHEN endpoint.previous_secret_expires_at > ${delivery.createdAt}::timestamptz
                  THEN endpoint.previous_secret_ciphertext END AS previous_secret_ciphertext,
             endpoint.previous_secret_expires_at
        FROM (SELECT) AS one
        LEFT JOIN (delivery CROSS JOIN event CROSS JOIN endpoint) ON true`;
    if (row === undefined) throw new Error('storing a webhook event returned no row');
    if (row.delivery_id === null) return { stored: row.stored, scheduled: false };
    const queue = new SqlDeliveryQueue(this.tx, this.secrets);
    this.tx.claimed.push(...(await queue.deliveriesOf([row], delivery.createdAt, delivery.leaseUntil)));
    return { stored: row.stored, scheduled: true };
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

/**
 * Each transaction of `db` with its own list of the deliveries it claimed, given to `afterCommit` once it has
 * committed (an empty list when it claimed none), never when it rolled back: nothing uncommitted is attempted.
 */
export function claimingTransactions(
  db: TransactionRunner<SqlTransaction>,
  afterCommit: (claimed: ClaimedDelivery[]) => void,
): TransactionRunner<EventStoreTransaction> {
  return {
    $transaction(fn, options) {
      const claimed: ClaimedDelivery[] = [];
      return notifyingAfterCommit(db, () => afterCommit(claimed)).$transaction(
        (tx) =>
          fn({
            $queryRaw: <T>(query: TemplateStringsArray, ...values: unknown[]) =>
              tx.$queryRaw<T>(query, ...values),
            $executeRaw: (query: TemplateStringsArray, ...values: unknown[]) =>
              tx.$executeRaw(query, ...values),
            claimed,
          }),
        options,
      );
    },
  };
}

/** Each run in its own transaction of `runner` (claimingTransactions, whose commits wake the delivery loop). */
export function eventStoreTransactions(
  runner: TransactionRunner<EventStoreTransaction>,
  secrets: OpenedSecrets,
): EventStoreTransactions {
  return {
    run: async (work) => runner.$transaction((tx) => work(new SqlEventStore(tx, secrets))),
  };
}
