import { AppError } from '@sika/platform';
import type { UseCaseContext } from './ports';

/** The most ids one question may carry: the watch asks in pages of this size. */
export const MAX_PAYMENT_IDS = 1_000;

/**
 * Which of these payments succeeded, whatever their mode: the ledger's continuous watch of the books asks it
 * of the payments it credited, since a credit of a payment that did not succeed is money paid twice.
 */
export class FindSucceededPayments {
  constructor(private readonly context: UseCaseContext) {}

  execute(paymentIds: readonly string[]): Promise<string[]> {
    if (paymentIds.length > MAX_PAYMENT_IDS) {
      throw new AppError('parameter_invalid', `At most ${MAX_PAYMENT_IDS} payment ids at once.`, {
        param: 'payment_ids',
      });
    }
    return this.context.payments.findSucceeded(this.context.db.reader, paymentIds);
  }
}
