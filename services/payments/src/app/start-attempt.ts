import { AppError, ID_PREFIXES, newId, tagSpan } from '@sika/platform';
import { parsePayerAlias } from '../domain/alias';
import { addAttempt } from '../domain/lifecycle';
import type { Payment } from '../domain/payment';
import { newTxId } from '@sika/rules';
import type { AttemptSender } from './attempt-sender';
import type { UseCaseContext } from './ports';

export interface StartAttemptDependencies extends UseCaseContext {
  sender: AttemptSender;
  dispatchGraceMs: number;
}

/**
 * The customer entered an alias on the hosted page: a new attempt (at most 5, on a created or request_sent
 * payment before its deadline) whose request leaves at once. An unknown alias is alias_unknown for the page
 * to show; the attempt stays recorded as failed and the payment as it was.
 */
export class StartAttempt {
  constructor(private readonly dependencies: StartAttemptDependencies) {}

  async execute(paymentId: string, customerAlias: string): Promise<Payment> {
    const { db, payments, clock, sender, dispatchGraceMs } = this.dependencies;
    const alias = parsePayerAlias(customerAlias);
    const added = await db.transaction(async (tx) => {
      const payment = await payments.lockById(tx, paymentId);
      if (payment === null) throw missingPayment();
      const now = clock.now();
      const withAttempt = addAttempt(
        payment,
        {
          id: newId(ID_PREFIXES.attempt),
          txId: newTxId(),
          alias,
          dispatchAfter: new Date(now.getTime() + dispatchGraceMs),
        },
        now,
      );
      const version = await payments.save(tx, payment, withAttempt.payment);
      return { attempt: withAttempt.attempt, committed: { payment: withAttempt.payment, version } };
    });

    tagSpan({ paymentId, attemptId: added.attempt.id });
    const result = await sender.send(added.attempt.id, added.committed);
    if (result.kind === 'rejected' && result.failureCode === 'alias_unknown') {
      throw new AppError('alias_unknown', 'The customer alias is unknown to the payment scheme.', {
        param: 'customer_alias',
      });
    }
    const payment = await payments.findById(db.reader, paymentId);
    if (payment === null) throw missingPayment();
    return payment;
  }
}

function missingPayment(): AppError {
  return new AppError('resource_missing', 'No such payment.', { param: 'payment_id' });
}
