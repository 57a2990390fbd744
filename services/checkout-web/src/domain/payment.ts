/** What the hosted page knows of a payment: the fields it shows and the ones that decide its screen. */

/** Spec §3.1. */
export type PaymentStatus =
  | 'created'
  | 'request_sent'
  | 'accepted_deferred'
  | 'succeeded'
  | 'declined'
  | 'expired'
  | 'canceled'
  | 'failed';

/** pending: recorded, the scheme has not answered yet; sent: the request reached the payer's bank. */
export type AttemptStatus =
  'pending' | 'sent' | 'accepted_deferred' | 'succeeded' | 'declined' | 'expired' | 'failed';

export interface CheckoutAttempt {
  status: AttemptStatus;
  /** Why the attempt failed, in payments' vocabulary (e.g. `alias_unknown`); null otherwise. */
  failureCode: string | null;
}

export interface CheckoutPayment {
  id: string;
  status: PaymentStatus;
  livemode: boolean;
  /** Whole XOF francs. */
  amount: bigint;
  /** Who the customer pays: the merchant's name when the payment was made (null if payments has none). */
  merchantName: string | null;
  reference: string | null;
  description: string | null;
  returnUrl: string;
  cancelUrl: string | null;
  expiresAt: Date;
  /** In the order the aliases were entered. */
  attempts: readonly CheckoutAttempt[];
}

/** Spec §3.2 rule 1. */
export const MAX_ATTEMPTS = 5;
