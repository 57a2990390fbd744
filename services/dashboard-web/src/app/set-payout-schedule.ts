import { AppError } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import { PAYOUT_SCHEDULES, type PayoutSchedule } from '@sika/rules';

import type { Peers } from './ports';

const isSchedule = (value: string): value is PayoutSchedule =>
  (PAYOUT_SCHEDULES as readonly string[]).includes(value);

/** Daily (the whole available balance at 06:00 Abidjan time) or manual ("Pay out now" and the API only). */
export class SetPayoutSchedule {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts'> }) {}

  async execute(scope: Scope, schedule: string): Promise<void> {
    if (!isSchedule(schedule)) {
      throw new AppError('parameter_invalid', 'Choose daily or manual payouts.', { param: 'schedule' });
    }
    await this.dependencies.peers.payouts.setSchedule(scope, schedule);
  }
}
