import type { Clock, Logger } from '@sika/platform';

import { payerBehaviourOf } from '../domain/alias-table';
import { deadlineOf, isPayable, type DemandeRecord } from '../domain/demande';
import { conflict, notFound } from '../domain/problem';
import { payerActionHandler } from './apply-payer-actions';
import type { PayerActionRepository } from './ports';

/**
 * The customer behind alias …04 pays now, as they would at delivery: test mode's stand-in for the customer's
 * banking app, not an operation of the API Business. Only a payer who pays later does this, and only while
 * the request can still be paid: sent or accepted, not paid, before its deadline. Sika then receives the
 * PAIEMENT_RECU callback as for any payment.
 */
export class PayDemande {
  constructor(
    private readonly actions: PayerActionRepository,
    private readonly clientId: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** Told once the callbacks a payment queued are committed, with the time they are due. */
    private readonly onCallbacksQueued: (dueAt: Date) => void,
  ) {}

  async execute(txId: string): Promise<DemandeRecord> {
    const now = this.clock.now();
    let refusal: Error | undefined;
    const result = await this.actions.applyNow(
      this.clientId,
      txId,
      'pay',
      now,
      (demande, action, webhooks) => {
        refusal = refusalOf(demande, now);
        return refusal ? undefined : payerActionHandler(now, this.logger)(demande, action, webhooks);
      },
    );
    if (result === null) throw notFound();
    if (refusal) throw refusal;
    if (!result.answered) throw conflict('The demande can no longer be paid.');
    if (result.answered.notifications.length > 0) this.onCallbacksQueued(now);
    return result.answered.demande;
  }
}

function refusalOf(demande: DemandeRecord, now: Date): Error | undefined {
  if (payerBehaviourOf(demande.request.payeurAlias).kind !== 'defers') {
    return conflict('Only the payer who pays later (alias +225 0000000004) pays on request.');
  }
  if (!isPayable(demande, now)) {
    const past = now.getTime() >= deadlineOf(demande.request).getTime();
    return conflict(
      past ? 'The demande ran out at its dateLimitePaiement.' : `The demande is ${demande.statut} already.`,
    );
  }
  return undefined;
}
