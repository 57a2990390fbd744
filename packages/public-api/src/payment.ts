import type { paymentsV1 } from '@sika/contracts';
import {
  ATTEMPT_FAILURE_CODES,
  ATTEMPT_FAILURE_CODE_NAMES,
  REFUND_STATUSES,
  REFUND_STATUS_NAMES,
  type AttemptFailureCode,
  type RefundStatus,
} from '@sika/rules';
import { z } from 'zod';
import { attemptStatus, paymentMode, paymentStatus } from './enums';
import { toJsonAmount, toJsonDate } from './json';

const dateTime = z.iso.datetime();

export const AttemptSchema = z
  .object({
    tx_id: z.string().max(35).describe('Identifier passed to the bank for this attempt.'),
    status: z.enum(attemptStatus.names),
    payer_alias_masked: z.string().describe('The alias entered, with its middle digits masked.'),
    duplicate: z
      .boolean()
      .describe(
        'True when the customer validated this attempt after another one had already settled the payment.',
      ),
    failure_code: z
      .enum(ATTEMPT_FAILURE_CODE_NAMES)
      .nullable()
      .describe(
        'Why the attempt did not go through; null while it may. ' +
          Object.entries(ATTEMPT_FAILURE_CODES)
            .map(([code, meaning]) => `\`${code}\`: ${meaning}`)
            .join(' '),
      ),
    refund_status: z
      .enum(REFUND_STATUS_NAMES)
      .nullable()
      .describe(
        'Money the customer paid on this attempt that goes back to them (a duplicate, a payment after the ' +
          'payment closed, another amount than asked); null when nothing is owed. ' +
          Object.entries(REFUND_STATUSES)
            .map(([status, meaning]) => `\`${status}\`: ${meaning}`)
            .join(' '),
      ),
    created_at: dateTime,
  })
  .meta({ id: 'PaymentAttempt', description: 'One alias entered by the customer (spec §2.1).' });

export const PaymentSchema = z
  .object({
    id: z.string().regex(/^pay_[A-Za-z0-9]+$/),
    object: z.literal('payment'),
    status: z.enum(paymentStatus.names),
    amount: z.number().int().min(1),
    currency: z.literal('XOF'),
    fee_amount: z.number().int().nullable(),
    net_amount: z.number().int().nullable(),
    mode: z.enum(paymentMode.names),
    reference: z.string().max(100).nullable(),
    description: z.string().max(140).nullable(),
    tx_id: z.string().max(35).nullable(),
    payer_alias_masked: z.string().nullable(),
    checkout_url: z
      .url()
      .describe(
        "The hosted payment page for the customer: <base>/pay/<id>/<token>. The token is secret, like Stripe's " +
          'client_secret: share the URL with this customer only. The payment id alone does not open the page.',
      ),
    return_url: z.url(),
    cancel_url: z.url().nullable(),
    expires_at: dateTime,
    created_at: dateTime,
    livemode: z.boolean(),
    metadata: z.record(z.string(), z.string()),
    attempts: z.array(AttemptSchema),
  })
  .meta({ id: 'Payment', description: 'A payment request sent over PI-SPI (spec §2.1).' });

export type PublicPayment = z.infer<typeof PaymentSchema>;
export type PublicAttempt = z.infer<typeof AttemptSchema>;

/** A value of a published vocabulary, or null when absent; anything else is a bug upstream. */
function oneOf<K extends string>(
  vocabulary: Readonly<Record<K, string>>,
  value: string | undefined,
): K | null {
  if (value === undefined) return null;
  if (!Object.hasOwn(vocabulary, value)) throw new Error(`unknown value ${value}`);
  return value as K;
}

export function renderAttempt(attempt: paymentsV1.Attempt): PublicAttempt {
  return {
    tx_id: attempt.txId,
    status: attemptStatus.toPublic(attempt.status),
    payer_alias_masked: attempt.payerAliasMasked,
    duplicate: attempt.duplicate,
    failure_code: oneOf<AttemptFailureCode>(ATTEMPT_FAILURE_CODES, attempt.failureCode),
    refund_status: oneOf<RefundStatus>(REFUND_STATUSES, attempt.refundStatus),
    created_at: toJsonDate(attempt.createdAt),
  };
}

const optionalAmount = (amount: bigint | undefined): number | null =>
  amount === undefined ? null : toJsonAmount(amount);

export function renderPayment(payment: paymentsV1.Payment): PublicPayment {
  return {
    id: payment.id,
    object: 'payment',
    status: paymentStatus.toPublic(payment.status),
    amount: toJsonAmount(payment.amount),
    currency: 'XOF',
    fee_amount: optionalAmount(payment.feeAmount),
    net_amount: optionalAmount(payment.netAmount),
    mode: paymentMode.toPublic(payment.mode),
    reference: payment.reference ?? null,
    description: payment.description ?? null,
    tx_id: payment.txId ?? null,
    payer_alias_masked: payment.payerAliasMasked ?? null,
    checkout_url: payment.checkoutUrl,
    return_url: payment.returnUrl,
    cancel_url: payment.cancelUrl ?? null,
    expires_at: toJsonDate(payment.expiresAt),
    created_at: toJsonDate(payment.createdAt),
    livemode: payment.livemode,
    metadata: { ...payment.metadata },
    attempts: payment.attempts.map(renderAttempt),
  };
}
