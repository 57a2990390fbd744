import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '@sika/platform';

import { answerDemande } from '../domain/callback-event';
import { newEnd2EndId } from '../domain/end2end-id';
import type { PayerActionHandler, PayerActionRepository } from './ports';

/** The handler both the worker and the pay operation apply: the payer's answer and its signed callbacks. */
export function payerActionHandler(now: Date, logger: Logger): PayerActionHandler {
  return (demande, action, webhooks) => {
    const answered = answerDemande(demande, action, now, webhooks, {
      end2endId: () => newEnd2EndId(now),
      notificationId: randomUUID,
    });
    if (answered) {
      logger.info(
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

/**
 * Worker step: the simulated payers whose answer is due answer now. Each answer updates the demande and
 * queues one signed callback per matching webhook, in one transaction, so a crash never loses a callback nor
 * sends one for an answer that was not saved.
 */
export class ApplyPayerActions {
  constructor(
    private readonly actions: PayerActionRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly batchSize = 50,
  ) {}

  execute(): Promise<number> {
    const now = this.clock.now();
    return this.actions.applyDue(now, this.batchSize, payerActionHandler(now, this.logger));
  }
}
