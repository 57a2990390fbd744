import { AppError, type Clock, type Logger } from '@sika/platform';
import type { BalanceTransaction } from '../domain/balance-transaction';
import {
  isSameCredit,
  planPaymentCredit,
  validatePaymentCredit,
  type PaymentCredit,
} from '../domain/payment-credit';
import type { Scope } from '../domain/scope';
import type { LedgerRepository } from './ports';

export interface PostPaymentCreditDependencies {
  repository: LedgerRepository;
  clock: Clock;
  logger: Logger;
}

/**
 * Credits a succeeded payment: its `payment` and `fee` movements, once. Payments calls this before it marks
 * the payment succeeded and retries it until it gets an answer, so a repeat (even a concurrent one) returns
 * the movements of the first call instead of crediting twice.
 */
export class PostPaymentCredit {
  constructor(private readonly deps: PostPaymentCreditDependencies) {}

  async execute(scope: Scope, credit: PaymentCredit): Promise<BalanceTransaction[]> {
    const { repository, clock, logger } = this.deps;
    validatePaymentCredit(credit);
    const plan = planPaymentCredit(credit);
    const recorded = await repository.recordPaymentCredit({
      scope,
      paymentId: credit.paymentId,
      plan,
      createdAt: clock.now(),
    });
    if (!recorded.created && !isSameCredit(recorded.movements, scope, credit)) {
      throw new AppError(
        'idempotency_key_reused',
        `Payment ${credit.paymentId} was already credited with a different amount, fee or scope.`,
        { param: 'payment_id' },
      );
    }
    // Routine at debug, as every success (the gRPC histogram counts the calls); a repeat stays visible.
    logger[recorded.created ? 'debug' : 'info'](
      { payment_id: credit.paymentId, livemode: scope.livemode, created: recorded.created },
      recorded.created ? 'payment credited' : 'payment credit repeated, returning the original movements',
    );
    return recorded.movements;
  }
}
