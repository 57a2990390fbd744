import type { PayoutsAudit, UseCaseContext } from './ports';

/**
 * What the audit checks the ledger against, in one mode: each merchant's pending payouts, and every settled
 * payout. Reading only; the verdict is the auditor's (`sika-ops audit`).
 */
export class AuditPayouts {
  constructor(private readonly deps: UseCaseContext) {}

  execute(livemode: boolean): Promise<PayoutsAudit> {
    return this.deps.payouts.audit(livemode);
  }
}
