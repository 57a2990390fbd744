import { paymentsV1 } from '@sika/contracts';
import { currentAttempt, refundStatusOf } from '../domain/payment';
import type { Attempt, AttemptStatus, Payment, PaymentMode, PaymentStatus } from '../domain/payment';

/** The contract's view of a payment (sika.payments.v1.Payment), for gRPC answers and events alike. */

export const PAYMENT_STATUS_TO_PROTO: Record<PaymentStatus, paymentsV1.PaymentStatus> = {
  created: paymentsV1.PaymentStatus.PAYMENT_STATUS_CREATED,
  request_sent: paymentsV1.PaymentStatus.PAYMENT_STATUS_REQUEST_SENT,
  accepted_deferred: paymentsV1.PaymentStatus.PAYMENT_STATUS_ACCEPTED_DEFERRED,
  succeeded: paymentsV1.PaymentStatus.PAYMENT_STATUS_SUCCEEDED,
  declined: paymentsV1.PaymentStatus.PAYMENT_STATUS_DECLINED,
  expired: paymentsV1.PaymentStatus.PAYMENT_STATUS_EXPIRED,
  canceled: paymentsV1.PaymentStatus.PAYMENT_STATUS_CANCELED,
  failed: paymentsV1.PaymentStatus.PAYMENT_STATUS_FAILED,
};

const ATTEMPT_STATUS_TO_PROTO: Record<AttemptStatus, paymentsV1.AttemptStatus> = {
  pending: paymentsV1.AttemptStatus.ATTEMPT_STATUS_PENDING,
  sent: paymentsV1.AttemptStatus.ATTEMPT_STATUS_SENT,
  accepted_deferred: paymentsV1.AttemptStatus.ATTEMPT_STATUS_ACCEPTED_DEFERRED,
  succeeded: paymentsV1.AttemptStatus.ATTEMPT_STATUS_SUCCEEDED,
  declined: paymentsV1.AttemptStatus.ATTEMPT_STATUS_DECLINED,
  expired: paymentsV1.AttemptStatus.ATTEMPT_STATUS_EXPIRED,
  failed: paymentsV1.AttemptStatus.ATTEMPT_STATUS_FAILED,
};

export const PAYMENT_MODE_TO_PROTO: Record<PaymentMode, paymentsV1.PaymentMode> = {
  immediate: paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE,
  on_delivery: paymentsV1.PaymentMode.PAYMENT_MODE_ON_DELIVERY,
};

function optional<T>(value: T | null): T | undefined {
  return value === null ? undefined : value;
}

/** The clear alias stays here: only its masked form leaves the service. */
function toProtoAttempt(attempt: Attempt): paymentsV1.Attempt {
  return {
    id: attempt.id,
    txId: attempt.txId,
    status: ATTEMPT_STATUS_TO_PROTO[attempt.status],
    payerAliasMasked: attempt.payerAliasMasked,
    duplicate: attempt.duplicate,
    failureCode: optional(attempt.failureCode),
    refundStatus: optional(refundStatusOf(attempt)),
    createdAt: attempt.createdAt,
  };
}

export function toProtoPayment(payment: Payment): paymentsV1.Payment {
  const current = currentAttempt(payment);
  return {
    id: payment.id,
    merchantId: payment.merchantId,
    livemode: payment.livemode,
    status: PAYMENT_STATUS_TO_PROTO[payment.status],
    amount: payment.amount,
    currency: payment.currency,
    feeAmount: optional(payment.feeAmount),
    netAmount: optional(payment.netAmount),
    mode: PAYMENT_MODE_TO_PROTO[payment.mode],
    reference: optional(payment.reference),
    description: optional(payment.description),
    txId: current?.txId,
    payerAliasMasked: current?.payerAliasMasked,
    checkoutUrl: payment.checkoutUrl,
    returnUrl: payment.returnUrl,
    cancelUrl: optional(payment.cancelUrl),
    expiresAt: payment.expiresAt,
    createdAt: payment.createdAt,
    metadata: { ...payment.metadata },
    attempts: payment.attempts.map(toProtoAttempt),
    merchantName: optional(payment.merchantName),
  };
}
