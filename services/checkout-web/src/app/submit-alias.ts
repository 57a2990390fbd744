import { AppError } from '@sika/platform';

import type { CheckoutLink } from '../domain/checkout-link';
import { checkCustomerAlias } from '../domain/customer-alias';
import type { AliasFormatProblem } from '../domain/customer-alias';
import type { PaymentsPort, SubmissionLimiter } from './ports';
import { openedPaymentId } from './show-checkout';
import type { CheckoutView, ShowCheckout } from './show-checkout';

/** Why an alias was not taken, in words the page can explain to the customer. */
export type AliasProblem = AliasFormatProblem | 'alias_unknown' | 'too_many_attempts' | 'unavailable';

export type SubmitAliasResult =
  /** The request left (or is leaving) for the customer's bank: show the waiting screen. */
  | { kind: 'submitted' }
  /** The payment no longer takes attempts (final, expiring, or accepted): show what it became. */
  | { kind: 'closed' }
  /** Too many submissions from the customer's address: nothing was sent. */
  | { kind: 'limited'; retryAfterSeconds: number }
  | { kind: 'rejected'; problem: AliasProblem; view: CheckoutView };

export interface SubmitAliasDependencies {
  payments: PaymentsPort;
  showCheckout: ShowCheckout;
  submissions: SubmissionLimiter;
  /** CHECKOUT_TOKEN_KEY, the key payments signs checkout_url with. */
  tokenKey: string;
}

function problemOf(error: AppError): AliasProblem | undefined {
  switch (error.code) {
    case 'alias_unknown':
      return 'alias_unknown';
    case 'too_many_attempts':
      return 'too_many_attempts';
    case 'parameter_invalid':
      return error.param === 'customer_alias' ? 'alias_invalid' : undefined;
    case 'service_unavailable':
      return 'unavailable';
    default:
      return undefined;
  }
}

/**
 * The customer submitted the alias form. Each submission through a valid link counts against the client's
 * address, whatever comes of it: a request-to-pay lands in someone's banking app, so the limit bounds how many
 * one address can push to strangers' phones, beyond payments' 5 attempts per payment.
 */
export class SubmitAlias {
  constructor(private readonly dependencies: SubmitAliasDependencies) {}

  async execute(link: CheckoutLink, rawAlias: string, clientAddress: string): Promise<SubmitAliasResult> {
    const paymentId = openedPaymentId(link, this.dependencies.tokenKey);
    const verdict = await this.dependencies.submissions.hit(clientAddress);
    if (verdict !== undefined && !verdict.allowed) {
      return { kind: 'limited', retryAfterSeconds: verdict.resetSeconds };
    }
    const check = checkCustomerAlias(rawAlias);
    if (!check.ok) return this.rejected(link, check.problem);
    try {
      await this.dependencies.payments.startAttempt(paymentId, check.alias);
      return { kind: 'submitted' };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'payment_already_final' || error.code === 'payment_expiring')
        return { kind: 'closed' };
      const problem = problemOf(error);
      if (problem === undefined) throw error;
      return this.rejected(link, problem);
    }
  }

  private async rejected(link: CheckoutLink, problem: AliasProblem): Promise<SubmitAliasResult> {
    const view = await this.dependencies.showCheckout.execute(link);
    // payments may have recorded the attempt before the answer was lost: then the request is on its way,
    // and showing the form again would invite a second one.
    if (problem === 'unavailable' && view.screen.kind === 'waiting') return { kind: 'submitted' };
    return { kind: 'rejected', problem, view };
  }
}
