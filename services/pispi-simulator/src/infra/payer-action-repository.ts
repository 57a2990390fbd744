import type { PayerActionHandler, PayerActionRepository } from '../app/ports';
import type { PayerAction } from '../domain/demande';
import { answerColumns, toDemandeRecord } from './demande-repository';
import type { SimulatorPrismaClient } from './prisma-client';

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
        const row = await tx.demande.findUniqueOrThrow({ where: { id: demandeId } });
        const webhooks = await tx.webhook.findMany({ where: { clientId: row.clientId, deletedAt: null } });
        const outcome = handle(toDemandeRecord(row), action, webhooks);
        if (outcome) {
          await tx.demande.update({ where: { id: demandeId }, data: answerColumns(outcome.demande) });
          await tx.notification.createMany({
            data: outcome.notifications.map((notification) => ({
              ...notification,
              demandeId,
              nextAttemptAt: now,
              createdAt: now,
            })),
          });
        }
        await tx.payerDecision.update({ where: { demandeId }, data: { appliedAt: now } });
      }
      return due.length;
    });
  }
}
