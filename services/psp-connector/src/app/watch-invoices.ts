import type { Clock, Logger } from '@sika/platform';

import { modeOf } from '../domain/mode';
import { effectOfDecision } from '../domain/payment-request';
import { decisionOfStatut } from '../domain/pispi-transformers';
import type { CallbackStore, PaymentRequestStore, ParticipantDirectory } from './ports';

/**
 * Reads the status of each invoice (a payment on delivery) its payer has not decided on yet, because the API
 * Business announces an acceptance with no event: IRREVOCABLE before any money is the payer accepting to pay
 * at delivery, published as ACCEPTED_DEFERRED; REJETE is published like a callback's rejection would be (the
 * callback, if it comes too, is then stale). The money itself still arrives as PAIEMENT_RECU. An invoice is
 * read until its deadline, the least recently read first; a scheme that does not answer is asked again on
 * the next pass.
 */
export class WatchInvoices {
  constructor(
    private readonly deps: {
      requests: PaymentRequestStore;
      schemes: ParticipantDirectory;
      store: CallbackStore;
      clock: Clock;
      logger: Logger;
      onPublished: () => void;
      batchSize: number;
    },
  ) {}

  async execute(): Promise<number> {
    const { requests, schemes, store, clock, logger } = this.deps;
    const invoices = await requests.invoicesToWatch(clock.now(), this.deps.batchSize);
    let published = 0;
    for (const { txId, livemode } of invoices) {
      const mode = modeOf(livemode);
      const scheme = schemes[mode];
      if (!scheme) continue;
      const known = await scheme.client.getDemandePaiement(txId).catch((error: unknown) => {
        logger.warn(
          { err: error, tx_id: txId, mode },
          'reading an invoice failed; read again on the next pass',
        );
        return undefined;
      });
      const decision = known && decisionOfStatut(known.statut, known.statutRaison);
      const now = clock.now();
      if (known && decision) {
        const reasonCode = decision === 'ACCEPTED_DEFERRED' ? undefined : known.statutRaison;
        published += await store.inTransaction(async (unit) => {
          const request = await unit.lockRequest(mode, txId);
          const effect = request && effectOfDecision(request.decision, decision);
          if (!effect) return 0;
          if (effect.record) await unit.recordDecision(txId, decision, reasonCode, undefined, now);
          if (!effect.publish) return 0;
          await unit.publish({
            livemode,
            txId,
            decision,
            reasonCode,
            endToEndId: undefined,
            amount: 0n,
            payeeMismatch: false,
            occurredAt: new Date(known.dateIrrevocabilite ?? known.dateReponse ?? now.toISOString()),
          });
          return 1;
        });
        logger.info({ tx_id: txId, mode, decision }, 'invoice decided');
      }
      await requests.markChecked(txId, now);
    }
    if (published > 0) this.deps.onPublished();
    return invoices.length;
  }
}
