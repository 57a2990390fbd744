import type { commonV1 } from '@sika/contracts';
import { paymentsV1 } from '@sika/contracts';
import { AppError } from '@sika/platform';
import type { CancelPaymentCommand } from '../../app/cancel-payment';
import type { CreatePaymentCommand } from '../../app/create-payment';
import type { ListPaymentsQuery } from '../../app/list-payments';
import type { PaymentMode, PaymentStatus } from '../../domain/payment';
import { PAYMENT_STATUS_TO_PROTO } from '../../infra/payment-proto';
import type { Scope } from '../../app/ports';

/** Parsing of the gRPC requests into commands: proto3 defaults (0, '') become "not given". */

export function scopeOf(scope: commonV1.Scope | undefined): Scope {
  if (scope === undefined || scope.merchantId === '') {
    throw new AppError('parameter_missing', 'The request has no merchant scope.', { param: 'scope' });
  }
  return { merchantId: scope.merchantId, livemode: scope.livemode };
}

function modeOf(mode: paymentsV1.PaymentMode): PaymentMode {
  switch (mode) {
    case paymentsV1.PaymentMode.PAYMENT_MODE_UNSPECIFIED:
    case paymentsV1.PaymentMode.PAYMENT_MODE_IMMEDIATE:
      return 'immediate';
    case paymentsV1.PaymentMode.PAYMENT_MODE_ON_DELIVERY:
      return 'on_delivery';
    default:
      throw new AppError('parameter_invalid', 'mode must be immediate or on_delivery.', { param: 'mode' });
  }
}

const STATUS_FROM_PROTO = new Map<paymentsV1.PaymentStatus, PaymentStatus>(
  Object.entries(PAYMENT_STATUS_TO_PROTO).map(([status, proto]) => [proto, status as PaymentStatus]),
);

function statusFilterOf(status: paymentsV1.PaymentStatus): PaymentStatus | null {
  if (status === paymentsV1.PaymentStatus.PAYMENT_STATUS_UNSPECIFIED) return null;
  const known = STATUS_FROM_PROTO.get(status);
  if (known === undefined)
    throw new AppError('parameter_invalid', 'status is not a payment status.', { param: 'status' });
  return known;
}

export function createCommandOf(request: paymentsV1.CreatePaymentRequest): CreatePaymentCommand {
  return {
    scope: scopeOf(request.scope),
    idempotencyKey: request.idempotencyKey ?? null,
    requestFingerprint: request.requestFingerprint,
    amount: request.amount,
    currency: request.currency === '' ? 'XOF' : request.currency,
    mode: modeOf(request.mode),
    expiresAt: request.expiresAt ?? null,
    reference: request.reference ?? null,
    description: request.description ?? null,
    customerAlias: request.customerAlias ?? null,
    returnUrl: request.returnUrl,
    cancelUrl: request.cancelUrl ?? null,
    metadata: request.metadata,
  };
}

export function cancelCommandOf(request: paymentsV1.CancelPaymentRequest): CancelPaymentCommand {
  return {
    scope: scopeOf(request.scope),
    paymentId: request.paymentId,
    idempotencyKey: request.idempotencyKey ?? null,
  };
}

export function listQueryOf(request: paymentsV1.ListPaymentsRequest): ListPaymentsQuery {
  return {
    scope: scopeOf(request.scope),
    limit: request.page?.limit ?? 0,
    startingAfter: request.page?.startingAfter ?? null,
    status: statusFilterOf(request.status),
    reference: request.reference ?? null,
    createdFrom: request.createdFrom ?? null,
    createdTo: request.createdTo ?? null,
  };
}
