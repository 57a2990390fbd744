import { StatementBatcher, type SqlDatabase } from '@sika/platform';

import type {
  NewPaymentRequest,
  PaymentRequestStore,
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

/** An outcome to record, as recordOutcome is given it. */
interface OutcomeUpdate {
  txId: string;
  outcome: RequestOutcome;
  end2endId: string | undefined;
  at: Date;
}

type InsertedRow = OutcomeRow & { tx_id: string; fingerprint: string };

/** Requests or outcomes one statement records at most. */
const MAX_BATCH = 100;

/**
 * Requests are recorded before they are sent and their outcomes once the scheme answered, each by a statement
 * that records every one arriving in the same turn of the event loop (StatementBatcher): under load one
 * statement and one commit serve many requests, and each caller goes on only once its own row is committed.
 */
export class SqlPaymentRequestStore implements PaymentRequestStore {
  private readonly inserts = new StatementBatcher(
    (requests: readonly NewPaymentRequest[]) => this.insertAll(requests),
    { maxBatchSize: MAX_BATCH },
  );
  private readonly outcomes = new StatementBatcher(
    (updates: readonly OutcomeUpdate[]) => this.recordOutcomes(updates),
    { maxBatchSize: MAX_BATCH },
  );

  constructor(private readonly db: Pick<SqlDatabase, '$queryRaw' | '$executeRaw'>) {}

  async recordIfAbsent(
    request: NewPaymentRequest,
  ): Promise<{ created: boolean; stored: StoredPaymentRequest }> {
    const inserted = await this.inserts.write(request);
    // The known row is read by a statement of its own: one a concurrent call just committed is invisible to
    // the INSERT's snapshot.
    const row =
      inserted ??
      (
        await this.db.$queryRaw<InsertedRow[]>`
          SELECT tx_id, fingerprint, outcome, reason_code FROM payment_requests WHERE tx_id = ${request.txId}`
      )[0];
    if (!row) throw new Error(`payment request ${request.txId} is neither new nor stored`);
    return {
      created: inserted !== undefined,
      stored: { txId: request.txId, fingerprint: row.fingerprint, outcome: outcomeFrom(row) },
    };
  }

  /**
   * ON CONFLICT DO NOTHING rather than catching a unique violation: concurrent calls with the same txId all
   * succeed, and exactly one of them learns it created the row (within a batch, the first with that txId,
   * whose row the INSERT wrote first). The arrays are unnested from sub-selects so that the plan stays generic.
   */
  private async insertAll(requests: readonly NewPaymentRequest[]): Promise<(InsertedRow | undefined)[]> {
    const column = <T>(of: (request: NewPaymentRequest) => T): T[] => requests.map(of);
    const rows = await this.db.$queryRaw<InsertedRow[]>`
      INSERT INTO payment_requests (tx_id, livemode, amount, fingerprint, payer_alias_masked, on_delivery,
                                    watch_until, created_at, updated_at)
      SELECT r.tx_id, r.livemode, r.amount, r.fingerprint, r.payer_alias_masked, r.on_delivery, r.watch_until,
             r.at, r.at
        FROM unnest((SELECT ${column((r) => r.txId)}::text[]), (SELECT ${column((r) => r.livemode)}::boolean[]),
                    (SELECT ${column((r) => r.amount.toString())}::bigint[]),
                    (SELECT ${column((r) => r.fingerprint)}::text[]),
                    (SELECT ${column((r) => r.payerAliasMasked)}::text[]),
                    (SELECT ${column((r) => r.onDelivery)}::boolean[]),
                    (SELECT ${column((r) => r.watchUntil)}::timestamptz[]),
                    (SELECT ${column((r) => r.at)}::timestamptz[]))
             AS r (tx_id, livemode, amount, fingerprint, payer_alias_masked, on_delivery, watch_until, at)
      ON CONFLICT (tx_id) DO NOTHING
      RETURNING tx_id, fingerprint, outcome, reason_code`;
    const created = new Map(rows.map((row) => [row.tx_id, row]));
    return requests.map((request) => {
      const row = created.get(request.txId);
      created.delete(request.txId);
      return row;
    });
  }

  async recordOutcome(
    txId: string,
    outcome: RequestOutcome,
    end2endId: string | undefined,
    at: Date,
  ): Promise<RequestOutcome> {
    // The first outcome wins: when one was recorded already, the UPDATE leaves the row and it is read.
    const row =
      (await this.outcomes.write({ txId, outcome, end2endId, at })) ??
      (
        await this.db.$queryRaw<OutcomeRow[]>`
          SELECT outcome, reason_code FROM payment_requests WHERE tx_id = ${txId}`
      )[0];
    const recorded = row ? outcomeFrom(row) : null;
    if (!recorded) throw new Error(`payment request ${txId} has no outcome after recording one`);
    return recorded;
  }

  /** Within a batch, outcomes for the same txId: one applies, and each of them is answered with it. */
  private async recordOutcomes(updates: readonly OutcomeUpdate[]): Promise<(OutcomeRow | undefined)[]> {
    const column = <T>(of: (update: OutcomeUpdate) => T): T[] => updates.map(of);
    const rows = await this.db.$queryRaw<(OutcomeRow & { tx_id: string })[]>`
      UPDATE payment_requests AS p
         SET outcome = r.outcome, reason_code = r.reason_code,
             end2end_id = COALESCE(r.end2end_id, p.end2end_id), updated_at = r.at
        FROM unnest((SELECT ${column((u) => u.txId)}::text[]), (SELECT ${column((u) => u.outcome.outcome)}::text[]),
                    (SELECT ${column((u) => (u.outcome.outcome === 'REJECTED' ? u.outcome.reasonCode : null))}::text[]),
                    (SELECT ${column((u) => u.end2endId ?? null)}::text[]),
                    (SELECT ${column((u) => u.at)}::timestamptz[]))
             AS r (tx_id, outcome, reason_code, end2end_id, at)
       WHERE p.tx_id = r.tx_id AND p.outcome IS NULL
      RETURNING p.tx_id, p.outcome, p.reason_code`;
    const recorded = new Map(rows.map((row) => [row.tx_id, row]));
    return updates.map((update) => recorded.get(update.txId));
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
