import { effectOfDecision, type PaymentRequestUpdate } from '../domain/payment-request';
import type { PispiEventMeaning } from '../domain/pispi-transformers';
import { recordCallbackEvent, type AppliedEffect, type CallbackEvent } from './callback-event';
import type { CallbackUnit } from './ports';

export type PayerDecisionEvent = CallbackEvent<Extract<PispiEventMeaning, { kind: 'decision' }>>;

/**
 * The payer's decision on a request-to-pay Sika sent (PAIEMENT_RECU, RTP_REJETE), in the callback's
 * transaction, under the request's lock: recorded on the request and published as psp.payment_request.updated
 * as effectOfDecision says (money that moved is news even after a first decision).
 */
export class ApplyPayerDecision {
  async execute(unit: CallbackUnit, received: PayerDecisionEvent): Promise<AppliedEffect> {
    const { meaning, mode, receivedAt } = received;
    const request = await unit.lockRequest(mode, meaning.txId);
    if (!request) return recordCallbackEvent(unit, received, 'unmatched');
    const effect = effectOfDecision(request.decision, meaning.decision);
    const recorded = await recordCallbackEvent(unit, received, effect.publish ? 'published' : 'stale');
    if (recorded === 'duplicate') return recorded;

    if (effect.record) {
      await unit.recordDecision(
        meaning.txId,
        meaning.decision,
        meaning.reasonCode,
        paymentEnd2endIdOf(received),
        receivedAt,
      );
    }
    if (effect.publish) await unit.publish(paymentRequestUpdateOf(received));
    return recorded;
  }
}

/** The news of a decision for payments. */
export function paymentRequestUpdateOf({ mode, meaning }: PayerDecisionEvent): PaymentRequestUpdate {
  return {
    livemode: mode === 'live',
    txId: meaning.txId,
    decision: meaning.decision,
    reasonCode: meaning.reasonCode,
    endToEndId: meaning.endToEndId,
    amount: meaning.amount,
    occurredAt: meaning.occurredAt,
    payeeMismatch: meaning.payeeMismatch,
  };
}

/** The end-to-end id of the payment that settled the request, kept to return that money if need be. */
export function paymentEnd2endIdOf({ meaning }: PayerDecisionEvent): string | undefined {
  return meaning.decision === 'PAID' ? meaning.endToEndId : undefined;
}
