import { AppError, newId } from '@sika/platform';
import { payoutDayAt } from '../domain/daily-run';
import { CURRENCY, type Payout } from '../domain/payout';
import { destinationFor } from '../domain/payout-account';
import type { PayoutReserver } from './payout-reserver';
import type { Ledger, UseCaseContext } from './ports';

const PAGE_SIZE = 100;
const MODES = [false, true] as const;
const PAYOUT_ACCOUNT_NOT_PAYABLE = new Set(['payout_account_missing', 'payout_account_cooling_down']);

/**
 * The daily automatic payout (spec §3.3): once the day's 06:00 Abidjan time has passed, every merchant of each
 * mode with something available, a daily schedule and (live) a verified payout account gets one `automatic`
 * payout of its whole available balance. The day's payout of a merchant and mode is unique in the database, so
 * replicas running this at once, or a run started again after a crash, never make a second one; a mode's run
 * is marked complete once every merchant was gone through, and later rounds of the day skip it.
 */
export class RunDailyPayouts {
  constructor(private readonly deps: UseCaseContext & { ledger: Ledger; reserver: PayoutReserver }) {}

  /** The number of payouts this round made. */
  async execute(): Promise<number> {
    const { accounts, clock } = this.deps;
    const day = payoutDayAt(clock.now());
    let made = 0;
    for (const livemode of MODES) {
      if (await accounts.isRunComplete(day, livemode)) continue;
      made += await this.runMode(day, livemode);
      await accounts.completeRun(day, livemode, clock.now());
      this.deps.logger.info({ day, livemode, payouts: made }, 'daily payout run complete');
    }
    return made;
  }

  private async runMode(day: string, livemode: boolean): Promise<number> {
    const { ledger, accounts } = this.deps;
    let made = 0;
    let startingAfter: string | undefined;
    for (;;) {
      const page = await ledger.payableBalances(livemode, startingAfter, PAGE_SIZE);
      const manual = await accounts.manualSchedules(livemode, page.merchantIds);
      const registered = await accounts.findMany(livemode, page.merchantIds);
      for (const merchantId of page.merchantIds) {
        if (manual.has(merchantId)) continue;
        if (await this.payOut(day, merchantId, livemode, registered.get(merchantId))) made += 1;
      }
      if (!page.hasMore) return made;
      startingAfter = page.merchantIds.at(-1);
    }
  }

  private async payOut(
    day: string,
    merchantId: string,
    livemode: boolean,
    registered: Parameters<typeof destinationFor>[1],
  ): Promise<boolean> {
    const { payouts, reserver, clock, logger, testAccount } = this.deps;
    let destination;
    try {
      destination = destinationFor(livemode, registered, testAccount, clock.now());
    } catch (error) {
      // No account to pay yet, or a new one still cooling down: its money waits for a later day's run.
      if (error instanceof AppError && PAYOUT_ACCOUNT_NOT_PAYABLE.has(error.code)) return false;
      throw error;
    }
    const now = clock.now();
    const payout: Payout = {
      id: newId('po'),
      merchantId,
      livemode,
      status: 'reserving',
      method: 'automatic',
      requestedAmount: null,
      amount: null,
      currency: CURRENCY,
      destination,
      failureCode: null,
      reasonCode: null,
      automaticFor: day,
      createdAt: now,
      paidAt: null,
      failedAt: null,
    };
    if (!(await payouts.recordAutomatic(payout, reserver.leaseUntil(now)))) return false;
    try {
      await reserver.reserve(payout);
      return true;
    } catch (error) {
      // Balance gone since the list was read (refused), or the ledger unreachable (left to the sweeper).
      logger.warn({ payout_id: payout.id, err: error }, 'automatic payout not reserved in this round');
      return false;
    }
  }
}
