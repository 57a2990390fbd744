import { tagSpan, type Clock, type Logger } from '@sika/platform';
import {
  isSameCredit,
  planPaymentCredit,
  validatePaymentCredit,
  type PaymentCredit,
} from '../domain/payment-credit';
import type { Scope } from '@sika/platform/pure';
import type { BookingStore } from './ports';

export interface CreditPaymentDependencies {
  bookings: BookingStore;
  clock: Clock;
  logger: Logger;
}

/**
 * Credits a payment that payments committed as succeeded (its `payment.succeeded` event): the `payment` and
 * `fee` movements, once per payment id. payments decided, in its own commit; the ledger only applies, so a
 * redelivered event, a second consumer or a ledger that applies it late never credits twice, and nothing is
 * credited that payments did not commit. A repeat with another amount, fee or scope is a bug upstream: it
 * throws, so the event is retried and then dead-lettered for an operator, never booked.
 */
export class CreditPayment {
  constructor(private readonly deps: CreditPaymentDependencies) {}

  async execute(scope: Scope, credit: PaymentCredit): Promise<void> {
    const { bookings, clock, logger } = this.deps;
    validatePaymentCredit(credit);
    tagSpan({ paymentId: credit.paymentId });
    const recorded = await bookings.recordPaymentCredit({
      scope,
      paymentId: credit.paymentId,
      plan: planPaymentCredit(credit),
      createdAt: clock.now(),
    });
    if (!recorded.created && !isSameCredit(recorded.movements, scope, credit)) {
      throw new Error(`payment ${credit.paymentId} was already credited with another amount, fee or scope`);
    }
    // Routine at debug, as every success; a repeat stays visible.
    logger[recorded.created ? 'debug' : 'info'](
      { payment_id: credit.paymentId, livemode: scope.livemode, created: recorded.created },
      recorded.created ? 'payment credited' : 'payment credit repeated, nothing written',
    );
  }
}
