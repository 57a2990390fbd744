import type { LedgerRepository } from './ports';

/** What Sika owes customers in a mode and has not returned yet. */
export class GetRefundsPayable {
  constructor(private readonly repository: LedgerRepository) {}

  execute(livemode: boolean): Promise<bigint> {
    return this.repository.systemAccountTotal(livemode, 'refunds_payable');
  }
}
