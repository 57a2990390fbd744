import type { Paiement } from '@sika/pispi';

import { notFound } from '../domain/problem';
import { toVirementPaiement } from '../domain/virement';
import type { VirementRepository } from './ports';

/** `GET /paiements/{txId}`: a transfer the calling client ordered. */
export class GetVirement {
  constructor(private readonly virements: VirementRepository) {}

  async execute(clientId: string, txId: string): Promise<Paiement> {
    const virement = await this.virements.find(clientId, txId);
    if (!virement) throw notFound();
    return toVirementPaiement(virement);
  }
}
