import { renderEvent, type EventType, type PublicPayment, type PublicPayout } from '@sika/public-api';
import type { Scope } from './scope';

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
  sourceMessageId: string;
  scope: Scope;
  type: EventType;
  payload: string;
  createdAt: Date;
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
    createdAt,
  };
}
