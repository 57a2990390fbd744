import type { Payment, Sika } from '@sika/node';

import { until, waitingAttempt } from '../payment-watch';

export interface HelperResult {
  payment_id: string;
  status: Payment['status'];
}

/**
 * `sika pay <id>`: the customer of the payment's request waiting at their bank (alias …04 or …07) pays it
 * now (the API's test helper); then waits until that attempt has settled, which is when payment.succeeded
 * (or, for a payment already final, the return of the money) is on its way.
 */
export async function pay(sika: Sika, paymentId: string): Promise<HelperResult> {
  const waiting = waitingAttempt(await sika.payments.retrieve(paymentId));
  await sika.testHelpers.payments.pay(paymentId);
  const settled =
    waiting === undefined
      ? await sika.payments.retrieve(paymentId)
      : await until(
          sika,
          paymentId,
          (payment) =>
            payment.attempts.find((attempt) => attempt.tx_id === waiting.tx_id)?.status === 'succeeded',
          'paid',
        );
  return { payment_id: paymentId, status: settled.status };
}

/** `sika expire <id>`: the payment expires now (payment.expired). */
export async function expire(sika: Sika, paymentId: string): Promise<HelperResult> {
  const expired = await sika.testHelpers.payments.expire(paymentId);
  return { payment_id: expired.id, status: expired.status };
}

export function describeHelperResult(action: 'pay' | 'expire', result: HelperResult): string {
  return action === 'pay'
    ? `The customer paid ${result.payment_id} at their bank; it is ${result.status}.\n`
    : `${result.payment_id} expired (payment.expired).\n`;
}
