import { AppError } from '@sika/platform';

import { checkCustomerAlias } from '../domain/customer-alias';
import type { AliasFormatProblem } from '../domain/customer-alias';
import { isPaymentId } from '../domain/payment-id';
import type { PaymentsPort } from './ports';
import { paymentMissing } from './show-checkout';
import type { CheckoutView, ShowCheckout } from './show-checkout';

/** Why an alias was not taken, in words the page can explain to the customer. */
export type AliasProblem = AliasFormatProblem | 'alias_unknown' | 'too_many_attempts' | 'unavailable';

export type SubmitAliasResult =
  /** The request left (or is leaving) for the customer's bank: show the waiting screen. */
  | { kind: 'submitted' }
  /** The payment no longer takes attempts (final, expiring, or accepted): show what it became. */
  | { kind: 'closed' }
  | { kind: 'rejected'; problem: AliasProblem; view: CheckoutView };

export interface SubmitAliasDependencies {
  payments: PaymentsPort;
  showCheckout: ShowCheckout;
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

/** The customer submitted the alias form. */
export class SubmitAlias {
  constructor(private readonly dependencies: SubmitAliasDependencies) {}

  async execute(paymentId: string, rawAlias: string): Promise<SubmitAliasResult> {
    if (!isPaymentId(paymentId)) throw paymentMissing();
    const check = checkCustomerAlias(rawAlias);
    if (!check.ok) return this.rejected(paymentId, check.problem);
    try {
      await this.dependencies.payments.startAttempt(paymentId, check.alias);
      return { kind: 'submitted' };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'payment_already_final' || error.code === 'payment_expiring')
        return { kind: 'closed' };
      const problem = problemOf(error);
      if (problem === undefined) throw error;
      return this.rejected(paymentId, problem);
    }
  }

  private async rejected(paymentId: string, problem: AliasProblem): Promise<SubmitAliasResult> {
    const view = await this.dependencies.showCheckout.execute(paymentId);
    // payments may have recorded the attempt before the answer was lost: then the request is on its way,
    // and showing the form again would invite a second one.
    if (problem === 'unavailable' && view.screen.kind === 'waiting') return { kind: 'submitted' };
    return { kind: 'rejected', problem, view };
  }
}
