import { setTimeout as sleep } from 'node:timers/promises';

import type { Payment, Sika } from '@sika/node';

/** Reads the payment until `accept` holds (the stack answers within a second or two), at most `timeoutMs`. */
export async function until(
  sika: Sika,
  id: string,
  accept: (payment: Payment) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<Payment> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const payment = await sika.payments.retrieve(id);
    if (accept(payment)) return payment;
    if (Date.now() >= deadline) {
      throw new Error(`${id} did not become ${what} within ${timeoutMs / 1000} s (it is ${payment.status}).`);
    }
    await sleep(300);
  }
}

/** The latest request of the payment waiting at the customer's bank, as the test helper pays it. */
export function waitingAttempt(payment: Payment): Payment['attempts'][number] | undefined {
  return payment.attempts.filter((attempt) => ['sent', 'accepted_deferred'].includes(attempt.status)).at(-1);
}
