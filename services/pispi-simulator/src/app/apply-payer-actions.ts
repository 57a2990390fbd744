import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '@sika/platform';

import { callbackBody, payerAnswerEvent, webhookReceives } from '../domain/callback-event';
import { applyPayerAction } from '../domain/demande';
import { newEnd2EndId } from '../domain/end2end-id';
import type { PayerActionHandler, PayerActionRepository } from './ports';

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
    const handle: PayerActionHandler = (demande, action, webhooks) => {
      const answered = applyPayerAction(demande, action, now, newEnd2EndId(now));
      if (!answered) return undefined;
      const event = payerAnswerEvent(answered, now);
      const body = callbackBody([event]);
      const notifications = webhooks
        .filter((webhook) => webhookReceives(webhook, event))
        .map((webhook) => ({ id: randomUUID(), webhookId: webhook.id, evCode: event.evCode, body }));
      this.logger.info(
        { tx_id: demande.txId, ev_code: event.evCode, callbacks: notifications.length },
        'payer answered',
      );
      return { demande: answered, notifications };
    };
    return this.actions.applyDue(now, this.batchSize, handle);
  }
}
