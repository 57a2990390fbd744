import type { DemandePaiementConsultationReponse } from '@sika/pispi';

import { toConsultationReponse } from '../domain/demande';
import type { DemandeRepository } from './ports';
import { notFound } from '../domain/problem';

/** `GET /demandes-paiements/{txId}`: a request-to-pay of the calling client. */
export class GetDemande {
  constructor(private readonly demandes: DemandeRepository) {}

  async execute(clientId: string, txId: string): Promise<DemandePaiementConsultationReponse> {
    const demande = await this.demandes.find(clientId, txId);
    if (!demande) throw notFound();
    return toConsultationReponse(demande);
  }
}
