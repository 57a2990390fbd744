import { AppError, type Scope } from '@sika/platform/pure';
import { characterCount, checkIdempotencyKey, isStorableText, UNSTORABLE_TEXT_MESSAGE } from '@sika/rules';
import { merchantAccount, systemAccount } from './accounts';
import { assertBalanced, type Posting } from './double-entry';
import type { PlannedMovement } from './payment-credit';

/** The ledger transaction kind of an adjustment: with its `adj_` id, what makes it happen once. */
export const ADJUSTMENT_KIND = 'adjustment';

export const REASON_MAX_LENGTH = 500;
export const REQUESTED_BY_MAX_LENGTH = 100;

/** What an operator asks for: a signed amount on the merchant's available balance, why, who, and a key. */
export interface AdjustmentRequest {
  amount: bigint;
  reason: string;
  idempotencyKey: string;
  requestedBy: string;
}

/** An adjustment as recorded: the request, its id (the source_id of its movement), scope and time. */
export interface Adjustment extends AdjustmentRequest {
  id: string;
  merchantId: string;
  livemode: boolean;
  createdAt: Date;
}

export interface AdjustmentPlan {
  postings: Posting[];
  movements: PlannedMovement[];
}

/** The request with its text trimmed, or a parameter_invalid naming what is wrong. */
export function validateAdjustment(request: AdjustmentRequest): AdjustmentRequest {
  if (request.amount === 0n) {
    throw new AppError('parameter_invalid', 'amount must not be 0.', { param: 'amount' });
  }
  checkIdempotencyKey(request.idempotencyKey);
  return {
    amount: request.amount,
    reason: requiredText(request.reason, 'reason', REASON_MAX_LENGTH),
    idempotencyKey: request.idempotencyKey,
    requestedBy: requiredText(request.requestedBy, 'requested_by', REQUESTED_BY_MAX_LENGTH),
  };
}

function requiredText(value: string, param: string, maxLength: number): string {
  const text = value.trim();
  const length = characterCount(text);
  if (length < 1 || length > maxLength) {
    throw new AppError('parameter_invalid', `${param} must be 1 to ${maxLength} characters.`, { param });
  }
  if (!isStorableText(text)) {
    throw new AppError('parameter_invalid', `${param} ${UNSTORABLE_TEXT_MESSAGE}.`, { param });
  }
  return text;
}

/**
 * An adjustment moves money between the merchant's available balance and Sika's `adjustments` account, with
 * one `adjustment` movement of the same signed amount. Decided from the available balance read under the
 * merchant's balance lock: one that would leave it negative is refused, and nothing is written.
 */
export function planAdjustment(available: bigint, amount: bigint): AdjustmentPlan {
  if (available + amount < 0n) {
    throw new AppError(
      'balance_insufficient',
      `The adjustment (${amount}) would make the available balance (${available}) negative: ` +
        `at most ${available} can be taken from it.`,
      { param: 'amount' },
    );
  }
  const postings: Posting[] = [
    { account: merchantAccount('available'), amount },
    { account: systemAccount('adjustments'), amount: -amount },
  ];
  assertBalanced(postings);
  return { postings, movements: [{ type: 'adjustment', amount }] };
}

/**
 * Whether the adjustment recorded under a key is the one this request asks for (the same merchant, mode,
 * amount and reason; another operator may repeat it): then the repeat is answered with it, else refused.
 */
export function isSameAdjustment(recorded: Adjustment, scope: Scope, request: AdjustmentRequest): boolean {
  return (
    recorded.merchantId === scope.merchantId &&
    recorded.livemode === scope.livemode &&
    recorded.amount === request.amount &&
    recorded.reason === request.reason
  );
}
