import { AppError } from '@sika/platform';
import { cancelPayment } from '../domain/lifecycle';
import type { Payment } from '../domain/payment';
import { checkIdempotencyKey } from '@sika/rules';
import type { Scope } from './ports';
import type { UseCaseContext } from './ports';
import { cancelFingerprint, type IdempotentRequest } from '../domain/idempotency';

export interface CancelPaymentCommand {
  scope: Scope;
  paymentId: string;
  idempotencyKey: string | null;
}

/**
 * POST /v1/payments/{id}/cancel (spec §4.4): a non-final payment becomes canceled (+ event); a final one is
 * payment_already_final. With an idempotency key, a replay answers with the payment instead of an error.
 */
export class CancelPayment {
  constructor(private readonly context: UseCaseContext) {}

  async execute(command: CancelPaymentCommand): Promise<Payment> {
    const { db, payments, idempotencyKeys, clock } = this.context;
    if (command.idempotencyKey !== null) checkIdempotencyKey(command.idempotencyKey);
    const { payment, changed } = await db.transaction(async (tx) => {
      const now = clock.now();
      const idempotency: IdempotentRequest | null =
        command.idempotencyKey === null
          ? null
          : {
              scope: { ...command.scope, key: command.idempotencyKey },
              operation: 'cancel_payment',
              fingerprint: cancelFingerprint(command.paymentId),
              now,
            };
      const replayedId = idempotency === null ? null : await idempotencyKeys.claim(tx, idempotency);
      if (replayedId !== null) {
        const replayed = await payments.findInScope(tx, command.scope, replayedId);
        if (replayed === null) throw new Error(`idempotency key points to a missing payment ${replayedId}`);
        return { payment: replayed, changed: false };
      }
      const current = await payments.lockInScope(tx, command.scope, command.paymentId);
      if (current === null) throw new AppError('resource_missing', 'No such payment.', { param: 'id' });
      const outcome = cancelPayment(current, now);
      await this.context.payments.record(tx, current, outcome, now);
      if (idempotency !== null) await idempotencyKeys.remember(tx, idempotency, current.id);
      return { payment: outcome.payment, changed: true };
    });
    if (changed) this.context.eventsCommitted();
    return payment;
  }
}
