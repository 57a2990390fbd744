import { randomUUID } from 'node:crypto';
import { QueueScanWindow, type Clock, type Logger } from '@sika/platform';

import { answerDemande } from '../domain/callback-event';
import { newEnd2EndId } from '../domain/end2end-id';
import type { LeasedCallbackDelivery, PayerActionHandler, PayerActionRepository } from './ports';

/** The handler both the worker and the pay operation apply: the payer's answer and its signed callbacks. */
export function payerActionHandler(now: Date, logger: Logger): PayerActionHandler {
  return (demande, action, webhooks) => {
    const answered = answerDemande(demande, action, now, webhooks, {
      end2endId: () => newEnd2EndId(now),
      notificationId: randomUUID,
    });
    if (answered) {
      logger.debug(
        {
          tx_id: demande.txId,
          action,
          statut: answered.demande.statut,
          callbacks: answered.notifications.length,
        },
        'payer answered',
      );
    }
    return answered;
  };
}

export interface ApplyPayerActionsOptions {
  /** The lease the callback worker's claim takes: the callbacks written here hold the same. */
  leaseMs: number;
  /** Sends the callbacks the answers queued, once they are committed. */
  deliver: LeasedCallbackDelivery;
  batchSize?: number;
}

/** Payers due this long ago at most are looked for routinely; the full scans find older ones. */
const SCAN_WINDOW = { windowMs: 10_000, fullScanIntervalMs: 5_000 };
const DEFAULT_BATCH_SIZE = 50;

/**
 * Worker step: the simulated payers whose answer is due answer now. Each answer updates the demande and
 * queues one signed callback per matching webhook, in one transaction, so a crash never loses a callback nor
 * sends one for an answer that was not saved. The callbacks are queued leased to this process, which sends
 * them right after the commit: the common case needs no claim, and a crash before the sending leaves them to
 * the claim once the lease runs out.
 */
export class ApplyPayerActions {
  private readonly scanWindow = new QueueScanWindow(SCAN_WINDOW);
  /** Payers answered per execute() at most. */
  readonly batchSize: number;

  constructor(
    private readonly actions: PayerActionRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly options: ApplyPayerActionsOptions,
  ) {
    this.batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  }

  async execute(): Promise<number> {
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + this.options.leaseMs);
    const dueSince = this.scanWindow.start(now);
    const { applied, leased } = await this.actions.applyDue(
      now,
      dueSince,
      this.batchSize,
      leaseUntil,
      payerActionHandler(now, this.logger),
    );
    this.scanWindow.scanned(dueSince, applied, this.batchSize);
    if (leased.length > 0) await this.options.deliver(leased);
    return applied;
  }
}
