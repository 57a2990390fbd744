import {
  DemandePaiementRequest,
  DemandePaiementStatut,
  DemandePaiementStatutRaison,
  RetourStatut,
  RetourStatutRaison,
} from '@sika/pispi';

import type { DemandeRepository } from '../app/ports';
import type { DemandeRecord, ScheduledPayerAction } from '../domain/demande';
import { Prisma, type SimulatorPrismaClient } from './prisma-client';

type DemandeRow = Prisma.DemandeGetPayload<object>;

export function toDemandeRecord(row: DemandeRow): DemandeRecord {
  return {
    txId: row.txId,
    // Stored after validation; parsing again gives the typed value (and would catch a hand-edited row).
    request: DemandePaiementRequest.parse(row.request),
    statut: DemandePaiementStatut.parse(row.statut),
    statutRaison: row.statutRaison === null ? null : DemandePaiementStatutRaison.parse(row.statutRaison),
    payeurNom: row.payeurNom,
    payeurPays: row.payeurPays,
    end2endId: row.end2endId,
    paiementEnd2endId: row.paiementEnd2endId,
    dateDemande: row.dateDemande,
    dateEnvoi: row.dateEnvoi,
    dateReponse: row.dateReponse,
    dateIrrevocabilite: row.dateIrrevocabilite,
    retour:
      row.retourStatut === null || row.retourDateDemande === null
        ? null
        : {
            statut: RetourStatut.parse(row.retourStatut),
            statutRaison:
              row.retourStatutRaison === null ? null : RetourStatutRaison.parse(row.retourStatutRaison),
            envois: row.retourEnvois,
            dateDemande: row.retourDateDemande,
            dateReponse: row.retourDateReponse,
          },
  };
}

/** The columns a payer's answer changes. */
export function answerColumns(record: DemandeRecord) {
  return {
    statut: record.statut,
    statutRaison: record.statutRaison,
    paiementEnd2endId: record.paiementEnd2endId,
    dateReponse: record.dateReponse,
    dateIrrevocabilite: record.dateIrrevocabilite,
    retourStatut: record.retour?.statut ?? null,
    retourStatutRaison: record.retour?.statutRaison ?? null,
    retourEnvois: record.retour?.envois ?? 0,
    retourDateDemande: record.retour?.dateDemande ?? null,
    retourDateReponse: record.retour?.dateReponse ?? null,
  };
}

export class PrismaDemandeRepository implements DemandeRepository {
  constructor(private readonly prisma: SimulatorPrismaClient) {}

  async insert(
    clientId: string,
    id: string,
    record: DemandeRecord,
    payerAction: ScheduledPayerAction | undefined,
  ): Promise<'inserted' | 'duplicate'> {
    try {
      // One statement with its nested decision: both rows or neither.
      await this.prisma.demande.create({
        data: {
          id,
          clientId,
          txId: record.txId,
          request: record.request,
          statut: record.statut,
          statutRaison: record.statutRaison,
          payeurNom: record.payeurNom,
          payeurPays: record.payeurPays,
          end2endId: record.end2endId,
          paiementEnd2endId: record.paiementEnd2endId,
          dateDemande: record.dateDemande,
          dateEnvoi: record.dateEnvoi,
          dateReponse: record.dateReponse,
          dateIrrevocabilite: record.dateIrrevocabilite,
          ...(payerAction && {
            decision: { create: { action: payerAction.action, dueAt: payerAction.dueAt } },
          }),
        },
      });
      return 'inserted';
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') return 'duplicate';
      throw error;
    }
  }

  async find(clientId: string, txId: string): Promise<DemandeRecord | null> {
    const row = await this.prisma.demande.findUnique({ where: { clientId_txId: { clientId, txId } } });
    return row && toDemandeRecord(row);
  }
}
