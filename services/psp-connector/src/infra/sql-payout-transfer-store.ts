import { outboxMessage, PAYOUT_TRANSFER_UPDATES, pspV1 } from '@sika/contracts';
import { enqueue } from '@sika/messaging';
import { traceHeaders, type Database } from '@sika/platform';
import { sql, type Kysely } from 'kysely';

import type {
  DueTransfer,
  LockedTransfer,
  NewPayoutTransfer,
  PayoutTransferStore,
  TransferUnit,
} from '../app/ports';
import type { TransferStatus, TransferStep } from '../domain/payout-transfer';
import type { DB } from '../generated/database';

/** A payout's transfer, locked until the transaction ends; null when payouts never asked for it. */
export async function lockPayoutTransfer(
  tx: Kysely<DB>,
  payoutId: string,
  livemode: boolean,
): Promise<LockedTransfer | null> {
  const row = await tx
    .selectFrom('payout_transfers')
    .select(['status', 'attempts'])
    .where('payout_id', '=', payoutId)
    .where('livemode', '=', livemode)
    .forUpdate()
    .executeTakeFirst();
  if (!row) return null;
  return { payoutId, livemode, state: { status: row.status as TransferStatus, attempts: row.attempts } };
}

/** Saves a step of a transfer and, when it ended, psp.payout_transfer.updated in the same transaction. */
export async function recordPayoutTransferStep(
  tx: Kysely<DB>,
  transfer: LockedTransfer,
  step: TransferStep,
  details: { reasonCode?: string | undefined; end2endId?: string | undefined },
  at: Date,
): Promise<void> {
  const { numUpdatedRows } = await tx
    .updateTable('payout_transfers')
    .set((eb) => ({
      status: step.status,
      attempts: step.attempts,
      next_attempt_at: step.nextAttemptAt,
      reason_code: eb.fn.coalesce(
        eb.cast<string | null>(eb.val(details.reasonCode ?? null), 'text'),
        'reason_code',
      ),
      end2end_id: eb.fn.coalesce(
        eb.cast<string | null>(eb.val(details.end2endId ?? null), 'text'),
        'end2end_id',
      ),
      updated_at: at,
    }))
    .where('payout_id', '=', transfer.payoutId)
    .executeTakeFirstOrThrow();
  if (numUpdatedRows !== 1n) throw new Error(`payout transfer ${transfer.payoutId} vanished while locked`);
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

/** Transfers to send or read back, as literals: the plan may use what the statistics know of each. */
const DUE_STATUSES = (['pending', 'unknown', 'sent'] as const).map((status) => sql.lit(status));

export class SqlPayoutTransferStore implements PayoutTransferStore {
  constructor(private readonly db: Database<DB>) {}

  async recordRequest(tx: unknown, request: NewPayoutTransfer): Promise<'recorded' | 'known'> {
    const { numInsertedOrUpdatedRows } = await (tx as Kysely<DB>)
      .insertInto('payout_transfers')
      .values({
        payout_id: request.payoutId,
        livemode: request.livemode,
        payee_alias: request.payeeAlias,
        amount: request.amount,
        reason: request.reason,
        status: sql.lit('pending'),
        attempts: sql.lit(0),
        next_attempt_at: request.at,
        created_at: request.at,
        updated_at: request.at,
        trace_context: sql`${JSON.stringify(traceHeaders())}::jsonb`,
      })
      .onConflict((oc) => oc.column('payout_id').doNothing())
      .executeTakeFirstOrThrow();
    return numInsertedOrUpdatedRows === 1n ? 'recorded' : 'known';
  }

  async claimDue(now: Date, limit: number, leaseMs: number): Promise<DueTransfer[]> {
    const leaseEnd = new Date(now.getTime() + leaseMs);
    return this.db
      .updateTable('payout_transfers')
      .set({ next_attempt_at: leaseEnd })
      .where('payout_id', 'in', (eb) =>
        eb
          .selectFrom('payout_transfers')
          .select('payout_id')
          .where('status', 'in', DUE_STATUSES)
          .where('next_attempt_at', '<=', now)
          .orderBy('next_attempt_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning([
        'payout_id as payoutId',
        'livemode',
        'status',
        'payee_alias as payeeAlias',
        'amount',
        'reason',
        'trace_context as traceContext',
      ])
      .$narrowType<{ status: TransferStatus }>()
      .execute();
  }

  inTransaction<T>(work: (unit: TransferUnit) => Promise<T>): Promise<T> {
    return this.db.transact((tx) =>
      work({
        lock: (payoutId, livemode) => lockPayoutTransfer(tx, payoutId, livemode),
        recordStep: (transfer, step, details, at) =>
          recordPayoutTransferStep(tx, transfer, step, details, at),
      }),
    );
  }
}
