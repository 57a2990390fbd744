import { randomUUID } from 'node:crypto';
import type { Clock, Logger } from '@sika/platform';

import { callbackBody, webhookReceives } from '../domain/callback-event';
import { answerVirement, virementEvent } from '../domain/virement';
import type { VirementRepository } from './ports';

/**
 * Worker step: the payees' banks whose answer is due answer now. Each answer updates the transfer and queues
 * one signed callback (PAIEMENT_ENVOYE or PAIEMENT_REJETE) per matching webhook, in one transaction.
 */
export class AnswerVirements {
  constructor(
    private readonly virements: VirementRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Told once the callbacks an execute() queued are committed, with the time they are due. */
    private readonly onCallbacksQueued: (dueAt: Date) => void,
    /** Transfers answered per execute() at most. */
    readonly batchSize = 50,
  ) {}

  async execute(): Promise<number> {
    const now = this.clock.now();
    let queued = 0;
    const taken = await this.virements.answerDue(now, this.batchSize, (virement, webhooks) => {
      const answered = answerVirement(virement, now);
      const event = answered && virementEvent(answered, now);
      if (!answered || !event) return undefined;
      const notifications = webhooks
        .filter((webhook) => webhookReceives(webhook, event))
        .map((webhook) => ({
          id: randomUUID(),
          webhookId: webhook.id,
          evCode: event.evCode,
          body: callbackBody([event]),
        }));
      this.logger.info(
        { tx_id: virement.txId, statut: answered.statut, callbacks: notifications.length },
        "payee's bank answered",
      );
      queued += notifications.length;
      return { virement: answered, notifications };
    });
    if (queued > 0) this.onCallbacksQueued(now);
    return taken;
  }
}
