import { AppError } from '@sika/platform/pure';
import { systemAccount } from './accounts';
import { assertBalanced, type Posting } from './double-entry';

/** payable: the money arrived and is owed back; sent: the return has gone. */
export type RefundStage = 'payable' | 'sent';

export interface Refund {
  /** The end-to-end id of the transfer that goes back: an attempt may have been paid more than once. */
  transferId: string;
  amount: bigint;
  stage: RefundStage;
}

/** The ledger transaction kind of each stage: with the transfer's id, what makes a stage happen once. */
export const REFUND_KINDS: Readonly<Record<RefundStage, string>> = {
  payable: 'refund_payable',
  sent: 'refund_sent',
};

export function validateRefund(refund: Refund): void {
  if (refund.transferId.length === 0 || refund.transferId.length > 35) {
    throw new AppError('parameter_invalid', 'end_to_end_id must be 1 to 35 characters.', {
      param: 'end_to_end_id',
    });
  }
  if (refund.amount < 1n) {
    throw new AppError('parameter_invalid', 'amount must be at least 1.', { param: 'amount' });
  }
}

/**
 * Money owed back moves between Sika's own accounts only: from the scheme to refunds_payable when it arrives,
 * back to the scheme when the return leaves. refunds_payable is then zero again, and no merchant balance ever
 * held it.
 */
export function planRefund(refund: Refund): Posting[] {
  const { amount } = refund;
  const postings: Posting[] =
    refund.stage === 'payable'
      ? [
          { account: systemAccount('scheme_settlement'), amount: -amount },
          { account: systemAccount('refunds_payable'), amount },
        ]
      : [
          { account: systemAccount('refunds_payable'), amount: -amount },
          { account: systemAccount('scheme_settlement'), amount },
        ];
  assertBalanced(postings);
  return postings;
}
