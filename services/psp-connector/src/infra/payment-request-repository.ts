import type {
  NewPaymentRequest,
  PaymentRequestRepository,
  StoredPaymentRequest,
  WatchedInvoice,
} from '../app/ports';
import type { RequestOutcome } from '../domain/payment-request';
import type { PspPrismaClient } from './prisma-client';

function outcomeFrom(row: { outcome: string | null; reasonCode: string | null }): RequestOutcome | null {
  if (row.outcome === 'SENT') return { outcome: 'SENT' };
  if (row.outcome === 'REJECTED') return { outcome: 'REJECTED', reasonCode: row.reasonCode ?? '' };
  return null;
}

export class PrismaPaymentRequestRepository implements PaymentRequestRepository {
  constructor(private readonly prisma: PspPrismaClient) {}

  async recordIfAbsent(
    request: NewPaymentRequest,
  ): Promise<{ created: boolean; stored: StoredPaymentRequest }> {
    // ON CONFLICT DO NOTHING rather than catching a unique violation: concurrent calls with the same txId
    // both succeed here, and exactly one of them learns it created the row.
    const inserted = await this.prisma.$executeRaw`
      INSERT INTO payment_requests (tx_id, livemode, amount, fingerprint, payer_alias_masked, on_delivery,
                                    watch_until, created_at, updated_at)
      VALUES (${request.txId}, ${request.livemode}, ${request.amount}, ${request.fingerprint},
              ${request.payerAliasMasked}, ${request.onDelivery}, ${request.watchUntil}, ${request.at}, ${request.at})
      ON CONFLICT (tx_id) DO NOTHING`;
    const row = await this.prisma.paymentRequest.findUniqueOrThrow({
      where: { txId: request.txId },
      select: { txId: true, fingerprint: true, outcome: true, reasonCode: true },
    });
    return {
      created: inserted === 1,
      stored: { txId: row.txId, fingerprint: row.fingerprint, outcome: outcomeFrom(row) },
    };
  }

  async recordOutcome(
    txId: string,
    outcome: RequestOutcome,
    end2endId: string | undefined,
    at: Date,
  ): Promise<RequestOutcome> {
    await this.prisma.paymentRequest.updateMany({
      where: { txId, outcome: null },
      data: {
        outcome: outcome.outcome,
        reasonCode: outcome.outcome === 'REJECTED' ? outcome.reasonCode : null,
        ...(end2endId !== undefined && { end2endId }),
        updatedAt: at,
      },
    });
    const row = await this.prisma.paymentRequest.findUniqueOrThrow({
      where: { txId },
      select: { outcome: true, reasonCode: true },
    });
    const recorded = outcomeFrom(row);
    if (!recorded) throw new Error(`payment request ${txId} has no outcome after recording one`);
    return recorded;
  }

  invoicesToWatch(now: Date, limit: number): Promise<WatchedInvoice[]> {
    return this.prisma.paymentRequest.findMany({
      where: { onDelivery: true, outcome: 'SENT', decision: null, watchUntil: { gt: now } },
      orderBy: { checkedAt: { sort: 'asc', nulls: 'first' } },
      take: limit,
      select: { txId: true, livemode: true },
    });
  }

  async markChecked(txId: string, at: Date): Promise<void> {
    await this.prisma.paymentRequest.update({ where: { txId }, data: { checkedAt: at } });
  }
}
