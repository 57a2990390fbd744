import { createHash } from 'node:crypto';

import type { Mode } from './mode';

/** ISO 20022 Max35Text, printable and without spaces (it also goes into a URL path). */
const TX_ID = /^[\x21-\x7E]{1,35}$/;

export function isSchemeTxId(value: string): boolean {
  return TX_ID.test(value);
}

/** What payments asks for (gRPC SendPaymentRequest), validated. */
export interface PaymentRequestInput {
  mode: Mode;
  txId: string;
  payerAlias: string;
  amount: bigint;
  reason: string | undefined;
  reference: string | undefined;
  /** The payment's deadline: no request may let the payer pay after it. */
  expiresAt: Date;
  /** Accepted now, paid at delivery: sent as an invoice (categorie 401). */
  onDelivery: boolean;
}

/** The scheme's immediate answer to a request-to-pay, as it said it (reason-codes.ts says what it means). */
export type RequestOutcome = { outcome: 'SENT' } | { outcome: 'REJECTED'; reasonCode: string };

/**
 * What became of a request, from the scheme's callbacks and, for an invoice, its status: ACCEPTED_DEFERRED is
 * an invoice the payer accepted and will pay later (IRREVOCABLE before any money); FAILED is a technical
 * failure nobody chose.
 */
export const PAYER_DECISIONS = ['PAID', 'ACCEPTED_DEFERRED', 'REJECTED', 'EXPIRED', 'FAILED'] as const;
export type PayerDecision = (typeof PAYER_DECISIONS)[number];

export function isPayerDecision(value: string): value is PayerDecision {
  return (PAYER_DECISIONS as readonly string[]).includes(value);
}

/**
 * What must be identical when the same txId is sent again. A hash, so the clear alias is not kept for the
 * comparison.
 */
export function fingerprintOf(input: PaymentRequestInput): string {
  const parts = [
    input.mode,
    input.payerAlias,
    input.amount.toString(),
    input.reason ?? '',
    input.reference ?? '',
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** What a callback's decision does to a request that may already have one. */
export interface DecisionEffect {
  /** The request's decision becomes the incoming one. */
  record: boolean;
  /** A PaymentRequestUpdated event goes out. */
  publish: boolean;
}

/**
 * The first decision is recorded and published. Money that moved always is published, even after a
 * rejection or a first payment (payments then refunds it): a payment is never swallowed. An accepted invoice
 * still ends: paid, or refused, expired or failed. Anything else after a decision is stale and has no effect.
 */
export function effectOfDecision(current: PayerDecision | null, incoming: PayerDecision): DecisionEffect {
  if (current === null) return { record: true, publish: true };
  if (incoming === 'PAID') return { record: current !== 'PAID', publish: true };
  if (current === 'ACCEPTED_DEFERRED' && incoming !== 'ACCEPTED_DEFERRED')
    return { record: true, publish: true };
  return { record: false, publish: false };
}

/** What payments is told when the scheme decided on a request: psp.payment_request.updated. */
export interface PaymentRequestUpdate {
  livemode: boolean;
  txId: string;
  decision: PayerDecision;
  reasonCode: string | undefined;
  endToEndId: string | undefined;
  amount: bigint;
  occurredAt: Date;
  /** Paid to another account than Sika's payee alias. */
  payeeMismatch: boolean;
}
