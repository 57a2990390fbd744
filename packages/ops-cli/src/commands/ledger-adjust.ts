import type { ledgerV1 } from '@sika/contracts';

import type { Command } from '../arguments';
import type { Services } from '../services';

export interface AdjustmentView {
  adjustment_id: string;
  merchant_id: string;
  livemode: boolean;
  /** Signed, in francs. */
  amount: number;
  reason: string;
  requested_by: string;
  idempotency_key: string;
  created_at: string;
  /** The `adjustment` movement the merchant sees in /v1/balance_transactions (source_id = adjustment_id). */
  balance_transaction_id: string;
  /** False when the key had been used before: nothing was written this time. */
  created: boolean;
}

type AdjustCommand = Omit<Extract<Command, { command: 'ledger:adjust' }>, 'command' | 'json'>;

/**
 * Corrects a merchant's available balance with an `adjustment` movement (LedgerService.PostAdjustment), once
 * per idempotency key. The merchant is looked up first (MerchantsService.GetMerchant), so that a mistyped id
 * is refused rather than given a balance of its own.
 */
export async function adjustBalance(
  services: Pick<Services, 'getMerchant' | 'postAdjustment'>,
  command: AdjustCommand,
): Promise<AdjustmentView> {
  const { merchantId, livemode } = command;
  await services.getMerchant(merchantId);
  const answer = await services.postAdjustment({
    scope: { merchantId, livemode },
    amount: command.amount,
    reason: command.reason,
    idempotencyKey: command.idempotencyKey,
    requestedBy: command.operator,
  });
  return viewOf(answer);
}

function viewOf({
  adjustment,
  balanceTransaction,
  created,
}: ledgerV1.PostAdjustmentResponse): AdjustmentView {
  if (adjustment?.createdAt === undefined || balanceTransaction === undefined) {
    throw new Error('the ledger answered PostAdjustment without its adjustment or movement');
  }
  return {
    adjustment_id: adjustment.id,
    merchant_id: adjustment.merchantId,
    livemode: adjustment.livemode,
    amount: Number(adjustment.amount),
    reason: adjustment.reason,
    requested_by: adjustment.requestedBy,
    idempotency_key: adjustment.idempotencyKey,
    created_at: adjustment.createdAt.toISOString(),
    balance_transaction_id: balanceTransaction.id,
    created,
  };
}

export function describeAdjustment(view: AdjustmentView): string {
  const mode = view.livemode ? 'live' : 'test';
  const headline = view.created
    ? `Adjustment ${view.adjustment_id} posted: ${view.amount} XOF on the ${mode} available balance of ` +
      `${view.merchant_id} (movement ${view.balance_transaction_id}).`
    : `Adjustment ${view.adjustment_id} was already posted with this key: nothing was written again. ` +
      `It is ${view.amount} XOF on the ${mode} available balance of ${view.merchant_id} ` +
      `(movement ${view.balance_transaction_id}).`;
  return [
    headline,
    `Reason: ${view.reason}`,
    `Requested by ${view.requested_by} at ${view.created_at}, idempotency key ${view.idempotency_key}`,
  ].join('\n');
}
