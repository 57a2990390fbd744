import type { Paiement } from '@sika/pispi';
import type { Clock, Logger } from '@sika/platform';

import { requestReturn, toPaiement } from '../domain/demande';
import { notFound } from '../domain/problem';
import type { PayerActionRepository } from './ports';

/**
 * `PUT /paiements/{end2endId}/retours`: the payee returns a payment it received, whole. The answer says where
 * the return stands (INITIE while the payer's bank answers); RETOUR_ENVOYE or RETOUR_REJETE follows as a
 * callback. Asked again, a return under way or sent is answered as it is, a rejected one is sent again.
 */
export class ReturnFunds {
  constructor(
    private readonly actions: PayerActionRepository,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly onScheduled: (dueAt: Date) => void,
  ) {}

  async execute(clientId: string, end2endId: string): Promise<Paiement> {
    const now = this.clock.now();
    let dueAt: Date | undefined;
    const demande = await this.actions.changePaid(clientId, end2endId, (paid) => {
      const asked = requestReturn(paid, now);
      dueAt = asked.next?.dueAt;
      return asked;
    });
    if (demande === null) throw notFound();
    this.logger.info(
      { tx_id: demande.txId, retour_statut: demande.retour?.statut, envois: demande.retour?.envois },
      'fund return asked',
    );
    if (dueAt) this.onScheduled(dueAt);
    return toPaiement(demande);
  }
}
