import type { SqlDatabase } from '@sika/platform';

import type {
  NewPaymentRequest,
  PaymentRequestRepository,
  StoredPaymentRequest,
  WatchedInvoice,
} from '../app/ports';
import type { RequestOutcome } from '../domain/payment-request';

interface OutcomeRow {
  outcome: string | null;
  reason_code: string | null;
}

function outcomeFrom(row: OutcomeRow): RequestOutcome | null {
  if (row.outcome === 'SENT') return { outcome: 'SENT' };
  if (row.outcome === 'REJECTED') return { outcome: 'REJECTED', reasonCode: row.reason_code ?? '' };
  return null;
}

export class SqlPaymentRequestRepository implements PaymentRequestRepository {
  constructor(private readonly db: SqlDatabase) {}

  async recordIfAbsent(
    request: NewPaymentRequest,
  ): Promise<{ created: boolean; stored: StoredPaymentRequest }> {
    type Row = OutcomeRow & { fingerprint: string };
    // ON CONFLICT DO NOTHING rather than catching a unique violation: concurrent calls with the same txId
    // both succeed here, and exactly one of them learns it created the row.
    const [inserted] = await this.db.$queryRaw<Row[]>`
      INSERT INTO payment_requests (tx_id, livemode, amount, fingerprint, payer_alias_masked, on_delivery,
                                    watch_until, created_at, updated_at)
      VALUES (${request.txId}, ${request.livemode}, ${request.amount}, ${request.fingerprint},
              ${request.payerAliasMasked}, ${request.onDelivery}, ${request.watchUntil}, ${request.at}, ${request.at})
      ON CONFLICT (tx_id) DO NOTHING
      RETURNING fingerprint, outcome, reason_code`;
    // The known row is read by a statement of its own, not in a CTE with the INSERT: one a concurrent call
    // just committed is invisible to the INSERT's snapshot.
    const row =
      inserted ??
      (
        await this.db.$queryRaw<Row[]>`
          SELECT fingerprint, outcome, reason_code FROM payment_requests WHERE tx_id = ${request.txId}`
      )[0];
    if (!row) throw new Error(`payment request ${request.txId} is neither new nor stored`);
    return {
      created: inserted !== undefined,
      stored: { txId: request.txId, fingerprint: row.fingerprint, outcome: outcomeFrom(row) },
    };
  }

  async recordOutcome(
    txId: string,
    outcome: RequestOutcome,
    end2endId: string | undefined,
    at: Date,
  ): Promise<RequestOutcome> {
    const [updated] = await this.db.$queryRaw<OutcomeRow[]>`
      UPDATE payment_requests
         SET outcome = ${outcome.outcome},
             reason_code = ${outcome.outcome === 'REJECTED' ? outcome.reasonCode : null},
             end2end_id = COALESCE(${end2endId ?? null}::text, end2end_id),
             updated_at = ${at}
       WHERE tx_id = ${txId} AND outcome IS NULL
      RETURNING outcome, reason_code`;
    // The first outcome wins: when one was recorded already, the UPDATE returns nothing and it is read.
    const row =
      updated ??
      (
        await this.db.$queryRaw<OutcomeRow[]>`
          SELECT outcome, reason_code FROM payment_requests WHERE tx_id = ${txId}`
      )[0];
    const recorded = row ? outcomeFrom(row) : null;
    if (!recorded) throw new Error(`payment request ${txId} has no outcome after recording one`);
    return recorded;
  }

  async invoicesToWatch(now: Date, limit: number): Promise<WatchedInvoice[]> {
    const rows = await this.db.$queryRaw<{ tx_id: string; livemode: boolean }[]>`
      SELECT tx_id, livemode FROM payment_requests
       WHERE on_delivery AND outcome = 'SENT' AND decision IS NULL AND watch_until > ${now}
       ORDER BY checked_at ASC NULLS FIRST
       LIMIT ${limit}`;
    return rows.map((row) => ({ txId: row.tx_id, livemode: row.livemode }));
  }

  async markChecked(txId: string, at: Date): Promise<void> {
    await this.db.$executeRaw`UPDATE payment_requests SET checked_at = ${at} WHERE tx_id = ${txId}`;
  }
}
