import type { Payment as PaymentRow, PaymentAttempt as AttemptRow, Prisma } from '../generated/prisma/client';
import type { SecretBox } from '@sika/platform';
import type { Attempt, AttemptFailureCode, Payment, RefundStatus } from '../domain/payment';

/**
 * Mapping between the domain's payment and the `payments` / `payment_attempts` rows. An attempt's alias is
 * sealed in its row by `aliases`, with the attempt id as context: a sealed alias copied onto another attempt
 * does not open.
 */

export type PaymentRowWithAttempts = PaymentRow & { attempts: AttemptRow[] };

export const WITH_ATTEMPTS = {
  attempts: { orderBy: { sequence: 'asc' } },
} as const satisfies Prisma.PaymentInclude;

function metadataOf(value: Prisma.JsonValue): Record<string, string> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The clear alias of a row: opened, or still clear until the payer-alias job seals it, or erased (null). */
function payerAliasOf(row: AttemptRow, aliases: SecretBox): string | null {
  if (row.payerAliasSealed !== null) return aliases.open(row.payerAliasSealed, row.id);
  return row.payerAliasClear;
}

export function attemptFromRow(row: AttemptRow, aliases: SecretBox): Attempt {
  return {
    id: row.id,
    sequence: row.sequence,
    txId: row.txId,
    status: row.status,
    payerAlias: payerAliasOf(row, aliases),
    payerAliasMasked: row.payerAliasMasked,
    duplicate: row.duplicate,
    failureCode: row.failureCode as AttemptFailureCode | null,
    refundStatus: row.refundStatus as RefundStatus | null,
    reasonCode: row.reasonCode,
    endToEndId: row.endToEndId,
    dispatchAfter: row.dispatchAfter,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function paymentFromRow(row: PaymentRowWithAttempts, aliases: SecretBox): Payment {
  return {
    id: row.id,
    merchantId: row.merchantId,
    livemode: row.livemode,
    status: row.status,
    amount: row.amount,
    currency: 'XOF',
    mode: row.mode,
    feeRule: { rateBps: row.feeRateBps, fixedAmount: row.feeFixedAmount },
    merchantName: row.merchantName,
    feeAmount: row.feeAmount,
    netAmount: row.netAmount,
    reference: row.reference,
    description: row.description,
    returnUrl: row.returnUrl,
    cancelUrl: row.cancelUrl,
    checkoutUrl: row.checkoutUrl,
    metadata: metadataOf(row.metadata),
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    attempts: row.attempts.map((attempt) => attemptFromRow(attempt, aliases)),
  };
}

export function attemptToRow(
  paymentId: string,
  attempt: Attempt,
  aliases: SecretBox,
): Prisma.PaymentAttemptUncheckedCreateInput {
  return {
    paymentId,
    ...attemptFields(attempt),
    id: attempt.id,
    sequence: attempt.sequence,
    txId: attempt.txId,
    payerAliasSealed: attempt.payerAlias === null ? null : aliases.seal(attempt.payerAlias, attempt.id),
    payerAliasMasked: attempt.payerAliasMasked,
    createdAt: attempt.createdAt,
  };
}

/** The columns of an attempt that change over its life. */
export function attemptFields(attempt: Attempt) {
  return {
    status: attempt.status,
    duplicate: attempt.duplicate,
    failureCode: attempt.failureCode,
    refundStatus: attempt.refundStatus,
    reasonCode: attempt.reasonCode,
    endToEndId: attempt.endToEndId,
    dispatchAfter: attempt.dispatchAfter,
    updatedAt: attempt.updatedAt,
  } satisfies Prisma.PaymentAttemptUncheckedUpdateInput;
}

export function paymentToRow(payment: Payment): Prisma.PaymentUncheckedCreateInput {
  return {
    id: payment.id,
    merchantId: payment.merchantId,
    livemode: payment.livemode,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    mode: payment.mode,
    feeRateBps: payment.feeRule.rateBps,
    feeFixedAmount: payment.feeRule.fixedAmount,
    merchantName: payment.merchantName,
    feeAmount: payment.feeAmount,
    netAmount: payment.netAmount,
    reference: payment.reference,
    description: payment.description,
    returnUrl: payment.returnUrl,
    cancelUrl: payment.cancelUrl,
    checkoutUrl: payment.checkoutUrl,
    metadata: { ...payment.metadata },
    expiresAt: payment.expiresAt,
    createdAt: payment.createdAt,
    updatedAt: payment.updatedAt,
  };
}
