import type { PaymentsAudit, UseCaseContext } from './ports';

/**
 * Payments as an audit reads them, in one mode: which succeeded, and every attempt whose money goes back to
 * the customer with where its refund stands. Reading only; the verdict is the auditor's.
 */
export class AuditPayments {
  constructor(private readonly context: UseCaseContext) {}

  execute(livemode: boolean): Promise<PaymentsAudit> {
    return this.context.payments.audit(this.context.db.reader, livemode);
  }
}
