import { newId, traceHeaders } from '@sika/platform';
import { sql } from 'kysely';

import { messagingTablesOf, type MessagingClient } from './sql';

export interface OutboxEvent {
  /** Topic routing key, e.g. `payment.succeeded`. */
  routingKey: string;
  /** Fully qualified protobuf message name, e.g. `sika.payments.v1.PaymentSucceeded`. */
  type: string;
  /** The protobuf-encoded event. */
  payload: Uint8Array;
  /**
   * Besides these, the row carries the trace context active when it is built (W3C `traceparent`): the
   * request's or message's that caused it, so its consumers join that trace. A `traceparent` given here wins.
   */
  headers?: Readonly<Record<string, string>>;
  /** Defaults to a new `msg_` id. Give one to make the write itself idempotent. */
  messageId?: string;
}

/**
 * Writes an event to the outbox inside the caller's transaction, so it is published if and only if the
 * state change it describes commits. Returns the message id, which consumers deduplicate on.
 *
 * created_at uses clock_timestamp(), not now(): now() is fixed for the whole transaction, and events
 * written by one transaction should keep their order.
 */
export async function enqueue(tx: MessagingClient, event: OutboxEvent): Promise<string> {
  const row = outboxRow(event);
  await messagingTablesOf(tx)
    .insertInto('outbox')
    .values({
      id: row.id,
      routing_key: row.routingKey,
      type: row.type,
      payload: row.payload,
      headers: sql`${row.headers}::jsonb`,
      created_at: sql`clock_timestamp()`,
    })
    .execute();
  return row.id;
}

/**
 * The outbox row of an event, but its created_at: a new `msg_` id unless given, the headers as JSON with the
 * active trace context (build it where the business transaction runs, not in a later loop). For a
 * statement that writes a change and its one event at once; its created_at is clock_timestamp(), as enqueue's.
 */
export function outboxRow(event: OutboxEvent) {
  return {
    id: event.messageId ?? newId('msg'),
    routingKey: event.routingKey,
    type: event.type,
    payload: Buffer.from(event.payload),
    headers: JSON.stringify({ ...traceHeaders(), ...event.headers }),
  };
}

/** Outbox rows as parallel arrays (see outboxRows). */
export interface OutboxRows {
  ids: string[];
  routingKeys: string[];
  types: string[];
  payloads: Buffer[];
  /** Each a JSON object. */
  headers: string[];
}

/**
 * The rows enqueue would write for `events`, as parallel arrays, for a statement that writes a change and the
 * events announcing it at once (one round trip instead of one more per event). Such a statement inserts
 * `outbox (id, routing_key, type, payload, headers, created_at)` from `unnest(ids::text[], routingKeys::text[],
 * types::text[], payloads::bytea[], headers::jsonb[]) WITH ORDINALITY AS e (…, n)`, with
 * `clock_timestamp() + e.n * interval '1 microsecond'` as created_at: one statement reads one clock per row,
 * which may not move between rows, and its events keep their order as enqueue's do.
 */
export function outboxRows(events: readonly OutboxEvent[]): OutboxRows {
  const rows = events.map(outboxRow);
  return {
    ids: rows.map((row) => row.id),
    routingKeys: rows.map((row) => row.routingKey),
    types: rows.map((row) => row.type),
    payloads: rows.map((row) => row.payload),
    headers: rows.map((row) => row.headers),
  };
}
