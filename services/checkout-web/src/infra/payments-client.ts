import { paymentsV1 } from '@sika/contracts';
import { createGrpcClient, type GrpcTls } from '@sika/platform';

import type { PaymentsPort } from '../app/ports';
import type { AttemptStatus, CheckoutPayment, PaymentStatus } from '../domain/payment';

const { PaymentStatus: ProtoPaymentStatus, AttemptStatus: ProtoAttemptStatus } = paymentsV1;

const PAYMENT_STATUSES: Readonly<Record<paymentsV1.PaymentStatus, PaymentStatus | undefined>> = {
  [ProtoPaymentStatus.PAYMENT_STATUS_UNSPECIFIED]: undefined,
  [ProtoPaymentStatus.PAYMENT_STATUS_CREATED]: 'created',
  [ProtoPaymentStatus.PAYMENT_STATUS_REQUEST_SENT]: 'request_sent',
  [ProtoPaymentStatus.PAYMENT_STATUS_ACCEPTED_DEFERRED]: 'accepted_deferred',
  [ProtoPaymentStatus.PAYMENT_STATUS_SUCCEEDED]: 'succeeded',
  [ProtoPaymentStatus.PAYMENT_STATUS_DECLINED]: 'declined',
  [ProtoPaymentStatus.PAYMENT_STATUS_EXPIRED]: 'expired',
  [ProtoPaymentStatus.PAYMENT_STATUS_CANCELED]: 'canceled',
  [ProtoPaymentStatus.PAYMENT_STATUS_FAILED]: 'failed',
  [ProtoPaymentStatus.UNRECOGNIZED]: undefined,
};

const ATTEMPT_STATUSES: Readonly<Record<paymentsV1.AttemptStatus, AttemptStatus | undefined>> = {
  [ProtoAttemptStatus.ATTEMPT_STATUS_UNSPECIFIED]: undefined,
  [ProtoAttemptStatus.ATTEMPT_STATUS_PENDING]: 'pending',
  [ProtoAttemptStatus.ATTEMPT_STATUS_SENT]: 'sent',
  [ProtoAttemptStatus.ATTEMPT_STATUS_ACCEPTED_DEFERRED]: 'accepted_deferred',
  [ProtoAttemptStatus.ATTEMPT_STATUS_SUCCEEDED]: 'succeeded',
  [ProtoAttemptStatus.ATTEMPT_STATUS_DECLINED]: 'declined',
  [ProtoAttemptStatus.ATTEMPT_STATUS_EXPIRED]: 'expired',
  [ProtoAttemptStatus.ATTEMPT_STATUS_FAILED]: 'failed',
  [ProtoAttemptStatus.UNRECOGNIZED]: undefined,
};

function known<T>(value: T | undefined, what: string): T {
  // A status this build does not know is a contract mismatch between deployments: fail loudly (500).
  if (value === undefined) throw new Error(`payments answered an unknown ${what}`);
  return value;
}

/** The fields of payments' Payment that the hosted page uses. */
export function toCheckoutPayment(payment: paymentsV1.Payment | undefined): CheckoutPayment {
  if (payment === undefined || payment.expiresAt === undefined) {
    throw new Error('payments answered without a payment or its deadline');
  }
  return {
    id: payment.id,
    status: known(PAYMENT_STATUSES[payment.status], 'payment status'),
    livemode: payment.livemode,
    amount: payment.amount,
    merchantName: payment.merchantName ?? null,
    reference: payment.reference ?? null,
    description: payment.description ?? null,
    returnUrl: payment.returnUrl,
    cancelUrl: payment.cancelUrl ?? null,
    expiresAt: payment.expiresAt,
    attempts: payment.attempts.map((attempt) => ({
      status: known(ATTEMPT_STATUSES[attempt.status], 'attempt status'),
      failureCode: attempt.failureCode ?? null,
    })),
  };
}

export interface PaymentsClient extends PaymentsPort {
  close(): void;
}

/** payments over gRPC (`host:port`) and mutual TLS; the channel connects lazily. */
export function createPaymentsClient(address: string, deadlineMs: number, tls: GrpcTls): PaymentsClient {
  const client = createGrpcClient(paymentsV1.PaymentsServiceClient, address, { deadlineMs, tls });
  return {
    getCheckoutPayment: async (paymentId) =>
      toCheckoutPayment((await client.getCheckoutPayment({ paymentId })).payment),
    startAttempt: async (paymentId, customerAlias) =>
      toCheckoutPayment((await client.startAttempt({ paymentId, customerAlias })).payment),
    close: () => client.close(),
  };
}
