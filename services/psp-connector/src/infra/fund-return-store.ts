import type { DueFundReturn, FundReturnStore, FundReturnUnit } from '../app/ports';
import { lockFundReturn, recordFundReturnStep } from './callback-store';
import type { Prisma, PspPrismaClient } from './prisma-client';

export class PrismaFundReturnStore implements FundReturnStore {
  constructor(private readonly prisma: PspPrismaClient) {}

  async recordRequest(
    tx: unknown,
    request: { txId: string; livemode: boolean; amount: bigint; at: Date },
  ): Promise<'recorded' | 'known'> {
    const client = tx as Prisma.TransactionClient;
    const paid = await client.paymentRequest.findFirst({
      where: { txId: request.txId, livemode: request.livemode },
      select: { paymentEnd2endId: true },
    });
    if (!paid?.paymentEnd2endId) {
      throw new Error(`no payment was received on ${request.txId}: nothing to return`);
    }
    const inserted = await client.$executeRaw`
      INSERT INTO fund_returns (tx_id, livemode, end2end_id, amount, status, attempts, next_attempt_at,
                                created_at, updated_at)
      VALUES (${request.txId}, ${request.livemode}, ${paid.paymentEnd2endId}, ${request.amount}, 'pending', 0,
              ${request.at}, ${request.at}, ${request.at})
      ON CONFLICT (tx_id) DO NOTHING`;
    return inserted === 1 ? 'recorded' : 'known';
  }

  claimDue(now: Date, limit: number, leaseMs: number): Promise<DueFundReturn[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
    return this.prisma.$queryRaw<DueFundReturn[]>`
      UPDATE fund_returns SET next_attempt_at = ${leaseEnd}
       WHERE tx_id IN (
         SELECT tx_id FROM fund_returns
          WHERE status IN ('pending', 'rejected', 'sending') AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING tx_id AS "txId", livemode, end2end_id AS "end2endId"`;
  }

  inTransaction<T>(work: (unit: FundReturnUnit) => Promise<T>): Promise<T> {
    return this.prisma.$transaction((tx) =>
      work({
        lock: (txId) => lockFundReturn(tx, { txId }),
        recordStep: (fundReturn, step, reasonCode, at, sentAgain) =>
          recordFundReturnStep(tx, fundReturn, step, reasonCode, at, sentAgain),
      }),
    );
  }
}
