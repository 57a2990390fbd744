import type { PublicBalance, PublicBalanceTransaction, PublicPayment } from '@sika/public-api';

import type { ListBalanceTransactionsQuery, ListPaymentsQuery } from '../domain/list-queries';
import type { NormalizedPaymentCreation } from '../domain/payment-creation';
import type { RateLimitDecision } from '../domain/rate-limit-window';

/** Who is calling: the merchant and the mode of the key. Every downstream call is scoped by it. */
export interface Scope {
  merchantId: string;
  livemode: boolean;
}

/** A page of a list endpoint, in the public shape. */
export interface PublicList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/** The merchants service: who owns a secret key. */
export interface Merchants {
  /** api_key_invalid for an unknown or revoked key. */
  authenticateKey(secretKey: string): Promise<Scope>;
}

/** The payments service, answering in the public shapes of the API. */
export interface Payments {
  create(
    scope: Scope,
    creation: NormalizedPaymentCreation,
    fingerprint: string,
    idempotencyKey: string | undefined,
  ): Promise<PublicPayment>;
  retrieve(scope: Scope, paymentId: string): Promise<PublicPayment>;
  cancel(scope: Scope, paymentId: string, idempotencyKey: string | undefined): Promise<PublicPayment>;
  list(scope: Scope, query: ListPaymentsQuery): Promise<PublicList<PublicPayment>>;
}

/** The ledger, answering in the public shapes of the API. */
export interface Ledger {
  balance(scope: Scope): Promise<PublicBalance>;
  listBalanceTransactions(
    scope: Scope,
    query: ListBalanceTransactionsQuery,
  ): Promise<PublicList<PublicBalanceTransaction>>;
}

export interface RateLimiter {
  /** Counts one request of the key; undefined when the limiter cannot tell (the request is let through). */
  hit(keyDigest: string, livemode: boolean): Promise<RateLimitDecision | undefined>;
}
