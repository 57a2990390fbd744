import type { PayoutSchedule } from '@sika/rules';
import type { Scope, UseCaseContext } from './ports';

/** Daily (the default) or manual: a manual merchant is skipped by the daily run and pays out on demand. */
export class SetPayoutSchedule {
  constructor(private readonly deps: UseCaseContext) {}

  async execute(scope: Scope, schedule: PayoutSchedule): Promise<PayoutSchedule> {
    await this.deps.accounts.setSchedule(scope, schedule, this.deps.clock.now());
    this.deps.logger.info({ ...scope, schedule }, 'payout schedule set');
    return schedule;
  }
}
