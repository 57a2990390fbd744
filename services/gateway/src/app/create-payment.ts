import { paymentsV1 } from '@sika/contracts';
import { renderPayment, type PublicPayment } from '@sika/public-api';

import { fingerprintOf } from '../domain/fingerprint';
import { normalizePaymentCreation, type PaymentCreationInput } from '../domain/payment-creation';
import type { PaymentsClient, Scope } from './ports';
import { present } from './present';

const MODES: Record<PaymentCreationInput['mode'], paymentsV1.PaymentMode> = {
  immediate: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
  on_delivery: paymentsV1.PaymentMode.PAYMENT_MODE_ON_DELIVERY,
};

/**
 * Spec §4.1. Idempotency is kept by payments, in the same transaction as the payment; the gateway sends the
 * key and the fingerprint of the normalized body, so key order, whitespace, defaults written out or not, and
 * null versus absent do not make a replay look like another request.
 */
export function createPayment(payments: PaymentsClient) {
  return async (
    scope: Scope,
    input: PaymentCreationInput,
    idempotencyKey?: string,
  ): Promise<PublicPayment> => {
    const normalized = normalizePaymentCreation(input);
    const { payment } = await payments.createPayment({
      scope,
      idempotencyKey,
      requestFingerprint: fingerprintOf(normalized),
      amount: BigInt(normalized.amount),
      currency: normalized.currency,
      mode: MODES[normalized.mode],
      expiresAt: normalized.expires_at === undefined ? undefined : new Date(normalized.expires_at),
      reference: normalized.reference,
      description: normalized.description,
      customerAlias: normalized.customer_alias,
      returnUrl: normalized.return_url,
      cancelUrl: normalized.cancel_url,
      metadata: normalized.metadata,
    });
    return renderPayment(present(payment, 'payment'));
  };
}
