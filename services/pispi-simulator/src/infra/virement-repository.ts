import { PaiementImmediatRequest, PaiementStatutRaison } from '@sika/pispi';

import type { VirementHandler, VirementRepository } from '../app/ports';
import type { ConfirmationResult, VirementRecord, VirementStatut } from '../domain/virement';
import type { Prisma, SimulatorPrismaClient } from './prisma-client';

type VirementRow = Prisma.VirementGetPayload<object>;

const STATUTS: readonly VirementStatut[] = ['INITIE', 'ENVOYE', 'IRREVOCABLE', 'REJETE', 'ANNULE'];

function toVirementRecord(row: VirementRow): VirementRecord {
  const statut = STATUTS.find((known) => known === row.statut);
  if (!statut) throw new Error(`virement ${row.id} has an unknown statut ${row.statut}`);
  return {
    txId: row.txId,
    // Stored after validation; parsing again gives the typed value (and would catch a hand-edited row).
    request: PaiementImmediatRequest.parse(row.request),
    statut,
    statutRaison: row.statutRaison === null ? null : PaiementStatutRaison.parse(row.statutRaison),
    payeNom: row.payeNom,
    payePays: row.payePays,
    end2endId: row.end2endId,
    dateDemande: row.dateDemande,
    dateConfirmation: row.dateConfirmation,
    dateEnvoi: row.dateEnvoi,
    dateReponse: row.dateReponse,
    dateIrrevocabilite: row.dateIrrevocabilite,
    outcomeDueAt: row.outcomeDueAt,
  };
}

/** The columns a transfer's life changes. */
function changeColumns(record: VirementRecord) {
  return {
    statut: record.statut,
    statutRaison: record.statutRaison,
    dateConfirmation: record.dateConfirmation,
    dateEnvoi: record.dateEnvoi,
    dateReponse: record.dateReponse,
    dateIrrevocabilite: record.dateIrrevocabilite,
    outcomeDueAt: record.outcomeDueAt,
  };
}

export class PrismaVirementRepository implements VirementRepository {
  constructor(private readonly prisma: SimulatorPrismaClient) {}

  async insert(clientId: string, id: string, record: VirementRecord): Promise<'inserted' | 'duplicate'> {
    const { count } = await this.prisma.virement.createMany({
      data: [
        {
          id,
          clientId,
          txId: record.txId,
          request: record.request,
          payeNom: record.payeNom,
          payePays: record.payePays,
          end2endId: record.end2endId,
          dateDemande: record.dateDemande,
          ...changeColumns(record),
        },
      ],
      skipDuplicates: true,
    });
    return count === 1 ? 'inserted' : 'duplicate';
  }

  async find(clientId: string, txId: string): Promise<VirementRecord | null> {
    const row = await this.prisma.virement.findUnique({ where: { clientId_txId: { clientId, txId } } });
    return row ? toVirementRecord(row) : null;
  }

  confirm(
    clientId: string,
    txId: string,
    decide: (record: VirementRecord) => ConfirmationResult,
  ): Promise<ConfirmationResult | null> {
    return this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM virements WHERE client_id = ${clientId} AND tx_id = ${txId} FOR UPDATE`;
      if (!row) return null;
      const result = decide(toVirementRecord(await tx.virement.findUniqueOrThrow({ where: { id: row.id } })));
      if (result.kind === 'decided' && result.changed) {
        await tx.virement.update({ where: { id: row.id }, data: changeColumns(result.record) });
      }
      return result;
    });
  }

  answerDue(now: Date, limit: number, handle: VirementHandler): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const due = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM virements WHERE outcome_due_at <= ${now}
        ORDER BY outcome_due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED`;
      for (const { id } of due) {
        const row = await tx.virement.findUniqueOrThrow({ where: { id } });
        const webhooks = await tx.webhook.findMany({ where: { clientId: row.clientId, deletedAt: null } });
        const answered = handle(toVirementRecord(row), webhooks);
        const record = answered?.virement ?? { ...toVirementRecord(row), outcomeDueAt: null };
        await tx.virement.update({ where: { id }, data: changeColumns(record) });
        if (answered) {
          await tx.notification.createMany({
            data: answered.notifications.map((notification) => ({
              ...notification,
              virementId: id,
              nextAttemptAt: now,
              createdAt: now,
            })),
          });
        }
      }
      return due.length;
    });
  }
}
