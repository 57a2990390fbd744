import { renderEvent, type EventType, type PublicPayment } from '@sika/public-api';
import type { Scope } from './scope';

/** A payment's status change as payments announced it, its payment already in its public shape. */
export interface PaymentChange {
  type: EventType;
  /** When the change happened; absent from an older producer, then the time it was received. */
  occurredAt: Date | undefined;
  scope: Scope;
  payment: PublicPayment;
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
 * The event of spec §2.6 for a payment status change: `data.object` is the payment as the API shows it,
 * metadata included (spec §6 rule 1), rendered by the same code as the API's responses. `created_at` is
 * when the change happened.
 */
export function buildPaymentEvent(input: {
  id: string;
  sourceMessageId: string;
  change: PaymentChange;
  receivedAt: Date;
}): StoredEvent {
  const { change } = input;
  const createdAt = change.occurredAt ?? input.receivedAt;
  const body = renderEvent({
    id: input.id,
    type: change.type,
    createdAt,
    livemode: change.scope.livemode,
    payment: change.payment,
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
