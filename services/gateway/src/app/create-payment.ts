import type { PublicPayment } from '@sika/public-api';

import { fingerprintOf } from '@sika/rules';
import { normalizePaymentCreation, type PaymentCreationInput } from '../domain/payment-creation';
import type { Payments, Scope } from './ports';

/**
 * Spec §4.1. Idempotency is kept by payments, in the same transaction as the payment; the gateway sends the
 * key and the fingerprint of the normalized body, so key order, whitespace, defaults written out or not, and
 * null versus absent do not make a replay look like another request. Without a key there is nothing to
 * compare a body with, so no fingerprint is computed.
 */
export class CreatePayment {
  constructor(private readonly deps: { payments: Payments }) {}

  async execute(scope: Scope, input: PaymentCreationInput, idempotencyKey?: string): Promise<PublicPayment> {
    const normalized = normalizePaymentCreation(input);
    const idempotency =
      idempotencyKey === undefined
        ? undefined
        : { key: idempotencyKey, fingerprint: fingerprintOf(normalized) };
    return this.deps.payments.create(scope, normalized, idempotency);
  }
}
