import { setTimeout as sleep } from 'node:timers/promises';

import { AppError } from '@sika/platform';
import type { Clock, Logger } from '@sika/platform';

import type { CheckoutLink } from '../domain/checkout-link';
import type { PaymentStatus } from '../domain/payment';
import { checkoutScreenOf, isLiveScreen, screenKey } from '../domain/screen';
import type { CheckoutScreen } from '../domain/screen';
import type { PaymentsPort } from './ports';
import { openedPaymentId } from './show-checkout';

export interface LiveUpdate {
  status: PaymentStatus;
  screen: CheckoutScreen;
}

export interface FollowCheckoutDependencies {
  payments: PaymentsPort;
  clock: Clock;
  logger: Logger;
  /** Pause between two reads of the payment. */
  pollIntervalMs: number;
  /** CHECKOUT_TOKEN_KEY, the key payments signs checkout_url with. */
  tokenKey: string;
}

/**
 * The waiting screen follows the payment live: payments is read every `pollIntervalMs` and each change (of
 * status or screen) is yielded, the current state first. Ends after yielding a screen that can no longer
 * change on its own (paid, outcome, alias form), when the payment vanished, or when `signal` aborts.
 * The first read fails like a page load would (unknown payment, payments down); later failed reads are
 * retried at the next tick, so a payments restart does not end the customer's wait.
 */
export class FollowCheckout {
  constructor(private readonly dependencies: FollowCheckoutDependencies) {}

  async *updates(link: CheckoutLink, signal: AbortSignal): AsyncGenerator<LiveUpdate> {
    const { payments, clock, logger, pollIntervalMs, tokenKey } = this.dependencies;
    const paymentId = openedPaymentId(link, tokenKey);
    let lastKey: string | undefined;
    while (!signal.aborted) {
      try {
        const payment = await payments.getCheckoutPayment(paymentId);
        const update = { status: payment.status, screen: checkoutScreenOf(payment, clock.now()) };
        const key = `${update.status} ${screenKey(update.screen)}`;
        if (key !== lastKey) {
          lastKey = key;
          yield update;
        }
        if (!isLiveScreen(update.screen)) return;
      } catch (error) {
        if (lastKey === undefined) throw error;
        if (error instanceof AppError && error.code === 'resource_missing') return;
        logger.warn({ err: error, payment_id: paymentId }, 'reading the payment for its live status failed');
      }
      try {
        await sleep(pollIntervalMs, undefined, { signal });
      } catch {
        return;
      }
    }
  }
}
