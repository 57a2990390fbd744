import { ID_PREFIXES, isId, type Scope } from '@sika/platform/pure';
import {
  renderEvent,
  TEST_EVENT_MESSAGE,
  TEST_EVENT_TYPE,
  type EventType,
  type PublicPayment,
  type PublicPayout,
} from '@sika/public-api';

/**
 * A status change as its producer announced it (a payment's by payments, a payout's by payouts), the record
 * already in its public shape.
 */
export interface RecordChange {
  type: EventType;
  /** When the change happened; absent from an older producer, then the time it was received. */
  occurredAt: Date | undefined;
  scope: Scope;
  object: PublicPayment | PublicPayout;
}

/** An event ready to store: the exact JSON body of every delivery, and what it is about. */
export interface StoredEvent {
  id: string;
  /** Null for a test event, which no message announced. */
  sourceMessageId: string | null;
  scope: Scope;
  type: EventType | typeof TEST_EVENT_TYPE;
  payload: string;
  /** The id of the payment or payout in `data.object`; null for a test event, which is about none. */
  objectId: string | null;
  createdAt: Date;
}

/** The kinds of record an event's `data.object` can be. */
const EVENT_OBJECT_PREFIXES = [ID_PREFIXES.payment, ID_PREFIXES.payout] as const;

/** Whether `value` is the id of a record events are about (`pay_…`, `po_…`). */
export function isEventObjectId(value: string): boolean {
  return EVENT_OBJECT_PREFIXES.some((prefix) => isId(prefix, value));
}

/**
 * The event of spec §2.6 for a status change: `data.object` is the payment or payout as the API shows it
 * (a payment's metadata included, spec §6 rule 1), rendered by the same code as the API's responses.
 * `created_at` is when the change happened.
 */
export function buildEvent(input: {
  id: string;
  sourceMessageId: string;
  change: RecordChange;
  receivedAt: Date;
}): StoredEvent {
  const { change } = input;
  const createdAt = change.occurredAt ?? input.receivedAt;
  const body = renderEvent({
    id: input.id,
    type: change.type,
    createdAt,
    livemode: change.scope.livemode,
    object: change.object,
  });
  return {
    id: input.id,
    sourceMessageId: input.sourceMessageId,
    scope: change.scope,
    type: change.type,
    payload: JSON.stringify(body),
    objectId: change.object.id,
    createdAt,
  };
}

/**
 * A `webhook.test` event in the envelope of every other event (spec §2.6): id, object, type, created_at,
 * livemode, then `data.object`, here `{"object": "webhook_test", "message": …}`.
 */
export function buildTestEvent(input: { id: string; scope: Scope; createdAt: Date }): StoredEvent {
  const body = {
    id: input.id,
    object: 'event',
    type: TEST_EVENT_TYPE,
    created_at: input.createdAt.toISOString(),
    livemode: input.scope.livemode,
    data: { object: { object: 'webhook_test', message: TEST_EVENT_MESSAGE } },
  };
  return {
    id: input.id,
    sourceMessageId: null,
    scope: input.scope,
    type: TEST_EVENT_TYPE,
    payload: JSON.stringify(body),
    objectId: null,
    createdAt: input.createdAt,
  };
}
