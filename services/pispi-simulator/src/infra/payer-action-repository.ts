import type { PayerActionHandler, PayerActionRepository } from '../app/ports';
import type { AnsweredDemande } from '../domain/callback-event';
import type { DemandeRecord, PayerAction, ScheduledPayerAction } from '../domain/demande';
import { answerColumns, toDemandeRecord } from './demande-repository';
import type { Prisma, SimulatorPrismaClient } from './prisma-client';

export class PrismaPayerActionRepository implements PayerActionRepository {
  constructor(private readonly prisma: SimulatorPrismaClient) {}

  applyDue(now: Date, limit: number, handle: PayerActionHandler): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const due = await tx.$queryRaw<{ demande_id: string; action: PayerAction }[]>`
        SELECT demande_id, action FROM payer_decisions
        WHERE applied_at IS NULL AND due_at <= ${now}
        ORDER BY due_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED`;
      for (const { demande_id: demandeId, action } of due) {
        await apply(tx, demandeId, action, now, handle);
      }
      return due.length;
    });
  }

  changePaid(
    clientId: string,
    paiementEnd2endId: string,
    change: (demande: DemandeRecord) => { demande: DemandeRecord; next: ScheduledPayerAction | undefined },
  ): Promise<DemandeRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM demandes
         WHERE client_id = ${clientId} AND paiement_end2end_id = ${paiementEnd2endId} FOR UPDATE`;
      if (!row) return null;
      const before = toDemandeRecord(await tx.demande.findUniqueOrThrow({ where: { id: row.id } }));
      const { demande, next } = change(before);
      if (demande === before) return before;
      await tx.demande.update({ where: { id: row.id }, data: answerColumns(demande) });
      if (next) await schedule(tx, row.id, next);
      return demande;
    });
  }

  applyNow(
    clientId: string,
    txId: string,
    action: PayerAction,
    now: Date,
    handle: PayerActionHandler,
  ): Promise<{ before: DemandeRecord; answered: AnsweredDemande | undefined } | null> {
    return this.prisma.$transaction(async (tx) => {
      const [row] = await tx.$queryRaw<{ id: string }[]>`
        SELECT id FROM demandes WHERE client_id = ${clientId} AND tx_id = ${txId} FOR UPDATE`;
      if (!row) return null;
      // The scheduled action's row too, so the worker cannot apply it at the same moment.
      await tx.$queryRaw`SELECT demande_id FROM payer_decisions WHERE demande_id = ${row.id} FOR UPDATE`;
      return apply(tx, row.id, action, now, handle);
    });
  }
}

/** Applies one action to one demande: saves the answer and its callbacks, and schedules what follows. */
async function apply(
  tx: Prisma.TransactionClient,
  demandeId: string,
  action: PayerAction,
  now: Date,
  handle: PayerActionHandler,
): Promise<{ before: DemandeRecord; answered: AnsweredDemande | undefined }> {
  const row = await tx.demande.findUniqueOrThrow({ where: { id: demandeId } });
  const webhooks = await tx.webhook.findMany({ where: { clientId: row.clientId, deletedAt: null } });
  const before = toDemandeRecord(row);
  const answered = handle(before, action, webhooks);
  if (answered) {
    await tx.demande.update({ where: { id: demandeId }, data: answerColumns(answered.demande) });
    await tx.notification.createMany({
      data: answered.notifications.map((notification) => ({
        ...notification,
        demandeId,
        nextAttemptAt: now,
        createdAt: now,
      })),
    });
  }
  const next = answered?.next;
  if (next) await schedule(tx, demandeId, next);
  else {
    await tx.payerDecision.upsert({
      where: { demandeId },
      update: { appliedAt: now },
      create: { demandeId, action, dueAt: now, appliedAt: now },
    });
  }
  return { before, answered };
}

/** A demande has one thing due at a time: what follows replaces what was applied. */
async function schedule(
  tx: Prisma.TransactionClient,
  demandeId: string,
  next: ScheduledPayerAction,
): Promise<void> {
  await tx.payerDecision.upsert({
    where: { demandeId },
    update: { action: next.action, dueAt: next.dueAt, appliedAt: null },
    create: { demandeId, action: next.action, dueAt: next.dueAt },
  });
}
