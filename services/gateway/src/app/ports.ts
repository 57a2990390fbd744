import type {
  PublicBalance,
  PublicBalanceTransaction,
  PublicEvent,
  PublicPayment,
  PublicPayout,
} from '@sika/public-api';

import type {
  ListBalanceTransactionsQuery,
  ListEventsQuery,
  ListPaymentsQuery,
  ListPayoutsQuery,
} from '../domain/list-queries';
import type { NormalizedPaymentCreation } from '../domain/payment-creation';
import type { RateLimitDecision } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';

export type { Scope };

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

/** A request's Idempotency-Key and the fingerprint of the body it came with. */
export interface Idempotency {
  key: string;
  fingerprint: string;
}

/** The payments service, answering in the public shapes of the API. */
export interface Payments {
  create(
    scope: Scope,
    creation: NormalizedPaymentCreation,
    idempotency: Idempotency | undefined,
  ): Promise<PublicPayment>;
  retrieve(scope: Scope, paymentId: string): Promise<PublicPayment>;
  cancel(scope: Scope, paymentId: string, idempotencyKey: string | undefined): Promise<PublicPayment>;
  list(scope: Scope, query: ListPaymentsQuery): Promise<PublicList<PublicPayment>>;
  /** Test mode only: the payment's deadline moves to now and it expires. */
  expireNow(scope: Scope, paymentId: string): Promise<PublicPayment>;
}

/**
 * Test mode's bank (the simulator): the customer behind a request-to-pay waiting there pays it now. A
 * refusal (nothing the customer can pay now) is no_request_waiting; an unreachable bank, service_unavailable.
 */
export interface TestBank {
  pay(txId: string): Promise<void>;
}

/** The payouts service, answering in the public shapes of the API. */
export interface Payouts {
  /** `amount` undefined: the whole available balance. */
  create(
    scope: Scope,
    amount: number | undefined,
    fingerprint: string,
    idempotencyKey: string,
  ): Promise<PublicPayout>;
  retrieve(scope: Scope, payoutId: string): Promise<PublicPayout>;
  list(scope: Scope, query: ListPayoutsQuery): Promise<PublicList<PublicPayout>>;
}

/** The ledger, answering in the public shapes of the API. */
export interface Ledger {
  balance(scope: Scope): Promise<PublicBalance>;
  listBalanceTransactions(
    scope: Scope,
    query: ListBalanceTransactionsQuery,
  ): Promise<PublicList<PublicBalanceTransaction>>;
}

/**
 * The events webhook-dispatcher stored (the dashboard reads the same), each exactly as its webhooks carry it.
 * Another merchant's or mode's event is resource_missing, like an unknown one.
 */
export interface Events {
  retrieve(scope: Scope, eventId: string): Promise<PublicEvent>;
  list(scope: Scope, query: ListEventsQuery): Promise<PublicList<PublicEvent>>;
}

export interface RateLimiter {
  /** Counts one request of the key; undefined when the limiter cannot tell (the request is let through). */
  hit(keyDigest: string, livemode: boolean): Promise<RateLimitDecision | undefined>;
}

/** Failed authentications per client address, so that guessing keys or a broken client costs merchants nothing. */
export interface AuthFailureLimiter {
  /** Whether one more authentication may be tried from the address; undefined when the limiter cannot tell. */
  check(address: string): Promise<RateLimitDecision | undefined>;
  recordFailure(address: string): Promise<void>;
}
