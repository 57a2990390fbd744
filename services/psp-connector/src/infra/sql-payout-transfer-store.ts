import { outboxMessage, PAYOUT_TRANSFER_UPDATES, pspV1 } from '@sika/contracts';
import { enqueue } from '@sika/messaging';
import { traceHeaders, type SqlDatabase, type SqlTransaction } from '@sika/platform';

import type { DueTransfer, LockedTransfer, PayoutTransferStore, TransferUnit } from '../app/ports';
import type { TransferStatus, TransferStep } from '../domain/payout-transfer';

/** A payout's transfer, locked until the transaction ends; null when payouts never asked for it. */
export async function lockPayoutTransfer(
  tx: SqlTransaction,
  payoutId: string,
  livemode: boolean,
): Promise<LockedTransfer | null> {
  const rows = await tx.$queryRaw<{ status: string; attempts: number }[]>`
    SELECT status, attempts FROM payout_transfers
     WHERE payout_id = ${payoutId} AND livemode = ${livemode} FOR UPDATE`;
  const row = rows[0];
  if (!row) return null;
  return { payoutId, livemode, state: { status: row.status as TransferStatus, attempts: row.attempts } };
}

/** Saves a step of a transfer and, when it ended, psp.payout_transfer.updated in the same transaction. */
export async function recordPayoutTransferStep(
  tx: SqlTransaction,
  transfer: LockedTransfer,
  step: TransferStep,
  details: { reasonCode?: string | undefined; end2endId?: string | undefined },
  at: Date,
): Promise<void> {
  const updated = await tx.$executeRaw`
    UPDATE payout_transfers
       SET status = ${step.status},
           attempts = ${step.attempts},
           next_attempt_at = ${step.nextAttemptAt},
           reason_code = COALESCE(${details.reasonCode ?? null}::text, reason_code),
           end2end_id = COALESCE(${details.end2endId ?? null}::text, end2end_id),
           updated_at = ${at}
     WHERE payout_id = ${transfer.payoutId}`;
  if (updated !== 1) throw new Error(`payout transfer ${transfer.payoutId} vanished while locked`);
  if (step.outcome === null) return;
  const update: pspV1.PayoutTransferUpdated = {
    livemode: transfer.livemode,
    payoutId: transfer.payoutId,
    status:
      step.outcome.result === 'PAID'
        ? pspV1.PayoutTransferStatus.PAYOUT_TRANSFER_STATUS_PAID
        : pspV1.PayoutTransferStatus.PAYOUT_TRANSFER_STATUS_FAILED,
    occurredAt: at,
    ...(step.outcome.result === 'FAILED' &&
      step.outcome.reasonCode !== undefined && { reasonCode: step.outcome.reasonCode }),
    ...(details.end2endId !== undefined && { endToEndId: details.end2endId }),
  };
  await enqueue(tx, outboxMessage(PAYOUT_TRANSFER_UPDATES, update, PAYOUT_TRANSFER_UPDATES.routingKey));
}

export class SqlPayoutTransferStore implements PayoutTransferStore {
  constructor(private readonly db: SqlDatabase) {}

  async recordRequest(
    tx: unknown,
    request: {
      payoutId: string;
      livemode: boolean;
      payeeAlias: string;
      amount: bigint;
      reason: string;
      at: Date;
    },
  ): Promise<'recorded' | 'known'> {
    const client = tx as SqlTransaction;
    const inserted = await client.$executeRaw`
      INSERT INTO payout_transfers (payout_id, livemode, payee_alias, amount, reason, status, attempts,
                                    next_attempt_at, created_at, updated_at, trace_context)
      VALUES (${request.payoutId}, ${request.livemode}, ${request.payeeAlias}, ${request.amount},
              ${request.reason}, 'pending', 0, ${request.at}, ${request.at}, ${request.at},
              ${JSON.stringify(traceHeaders())}::jsonb)
      ON CONFLICT (payout_id) DO NOTHING`;
    return inserted === 1 ? 'recorded' : 'known';
  }

  claimDue(now: Date, limit: number, leaseMs: number): Promise<DueTransfer[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
    return this.db.$queryRaw<DueTransfer[]>`
      UPDATE payout_transfers SET next_attempt_at = ${leaseEnd}
       WHERE payout_id IN (
         SELECT payout_id FROM payout_transfers
          WHERE status IN ('pending', 'unknown', 'sent') AND next_attempt_at <= ${now}
          ORDER BY next_attempt_at
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
      RETURNING payout_id AS "payoutId", livemode, status, payee_alias AS "payeeAlias", amount, reason,
        trace_context AS "traceContext"`;
  }

  inTransaction<T>(work: (unit: TransferUnit) => Promise<T>): Promise<T> {
    return this.db.$transaction((tx) =>
      work({
        lock: (payoutId, livemode) => lockPayoutTransfer(tx, payoutId, livemode),
        recordStep: (transfer, step, details, at) =>
          recordPayoutTransferStep(tx, transfer, step, details, at),
      }),
    );
  }
}
