import type { Scope } from '@sika/platform/pure';
import type { PublicBalance, PublicBalanceTransaction, PublicPayment, PublicPayout } from '@sika/public-api';
import type { ActivationDetails, ActivationStatus, PayoutAliasType, PayoutSchedule } from '@sika/rules';

import type { ListFilters } from '../domain/list-filters';

export interface UserRecord {
  id: string;
  merchantId: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
}

export interface SessionRecord {
  tokenHash: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  /** When the password was last typed in this session; null when never (see `authenticatedRecently`). */
  authenticatedAt: Date | null;
}

/** The dashboard's own tables (schema `dashboard`). */
export interface AccountStore {
  findUserByEmail(email: string): Promise<UserRecord | undefined>;
  findUserById(id: string): Promise<UserRecord | undefined>;
  /** False when the address is taken (a concurrent sign-up won). */
  createUser(user: UserRecord): Promise<boolean>;
  createSession(session: SessionRecord): Promise<void>;
  findSession(tokenHash: string): Promise<(SessionRecord & { user: UserRecord }) | undefined>;
  extendSession(tokenHash: string, expiresAt: Date): Promise<void>;
  /** The password was typed again in this session at `at`. */
  markSessionAuthenticated(tokenHash: string, at: Date): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  createPasswordReset(reset: {
    tokenHash: string;
    userId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  /**
   * Sets the password of the reset's user if the reset is unused and unexpired at `now`, marks it used and ends
   * every session of that user, in one transaction. Undefined when the link is unknown, used or expired.
   */
  consumePasswordReset(tokenHash: string, now: Date, passwordHash: string): Promise<UserRecord | undefined>;
  /** The user of an unused, unexpired reset link, without using it. */
  findPasswordReset(tokenHash: string, now: Date): Promise<UserRecord | undefined>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export type Admission = { kind: 'allowed' } | { kind: 'limited'; retryAfterSeconds: number };

/** Sign-in attempts per account and per address, counted in shared fixed windows (Redis). */
export interface SignInGuard {
  /** Counts this attempt, before its password is checked, and says whether it may be checked. */
  admit(accountKey: string, address: string): Promise<Admission>;
  /** After a sign-in: the account starts again from no attempts. */
  forgetAccount(accountKey: string): Promise<void>;
}

/** Sign-ups per client address and for everyone, counted in shared fixed windows (Redis). */
export interface SignUpGuard {
  /** Counts this sign-up, before anything is hashed or created, and says whether it may go on. */
  admit(address: string): Promise<Admission>;
}

/** Written once in @sika/rules: the dashboard collects and shows what the merchants service checks and keeps. */
export type { ActivationDetails, ActivationStatus };

export interface MerchantSummary {
  id: string;
  name: string;
  liveEnabled: boolean;
  activation: { status: ActivationStatus; details: ActivationDetails | undefined };
}

/** A secret key as the dashboard may show it: never the key itself. */
export interface KeySummary {
  livemode: boolean;
  lastFour: string;
  createdAt: Date | undefined;
  /** A replaced key that still works until then; undefined for the current key. */
  expiresAt: Date | undefined;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  number: number;
  attemptedAt: Date | undefined;
  url: string;
  statusCode: number | undefined;
  error: string | undefined;
  durationMs: number;
}

/** One event of the delivery log: what was sent, and every attempt to send it. */
export interface WebhookEvent {
  id: string;
  type: string;
  createdAt: Date | undefined;
  /** The JSON body exactly as sent. */
  payload: string;
  /** Absent while the mode had no URL when the event happened. */
  delivery:
    | {
        status: DeliveryStatus;
        attemptCount: number;
        nextAttemptAt: Date | undefined;
        deliveredAt: Date | undefined;
        attempts: DeliveryAttempt[];
      }
    | undefined;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** The merchants service, through the gRPC operations the CLI uses too. */
export interface Merchants {
  create(name: string): Promise<{ merchantId: string; testSecretKey: string }>;
  get(merchantId: string): Promise<MerchantSummary>;
  keys(merchantId: string): Promise<KeySummary[]>;
  /**
   * The new key of the scope's mode; the previous one stops at once, or `expirePreviousAfterSeconds` later.
   * `notifyEmail` is told in the renewal's own transaction.
   */
  renewKey(scope: Scope, expirePreviousAfterSeconds: number, notifyEmail: string): Promise<string>;
  requestActivation(merchantId: string, details: ActivationDetails): Promise<void>;
  /** Records an email to the account in merchants' outbox of emails, to leave after the delay; its id. */
  recordEmail(email: {
    merchantId: string;
    to: string;
    kind: AccountEmailKind;
    livemode: boolean;
    sendAfterSeconds: number;
  }): Promise<string>;
  /** Withdraws a recorded email that has not left (the change it announced was refused). */
  cancelEmail(emailId: string): Promise<void>;
}

/** What the account's owner is told by email (the text is merchants' own, never a secret). */
export type AccountEmailKind =
  | 'welcome'
  | 'sign_up_attempt'
  | 'payout_account_set'
  | 'payout_account_confirmed'
  | 'payout_account_cooling_down'
  | 'secret_key_renewed'
  | 'webhook_secret_revealed'
  | 'webhook_secret_rolled';

export interface Payments {
  list(scope: Scope, filters: ListFilters, limit: number): Promise<Page<PublicPayment>>;
  get(scope: Scope, paymentId: string): Promise<PublicPayment>;
  cancel(scope: Scope, paymentId: string): Promise<void>;
}

/** What one day (Africa/Abidjan) brought in: gross credits and their count, and fees (positive). */
export interface DailyCollection {
  /** `YYYY-MM-DD`. */
  day: string;
  collected: bigint;
  fees: bigint;
  paymentCount: number;
}

export interface MovementFilters {
  type?: string;
  createdFrom?: Date;
  createdTo?: Date;
  startingAfter?: string;
}

export interface Ledger {
  balance(scope: Scope): Promise<PublicBalance>;
  movements(scope: Scope, filters: MovementFilters, limit: number): Promise<Page<PublicBalanceTransaction>>;
  /** Days of [from, to) with any movement, ascending. */
  collections(scope: Scope, range: { from: Date; to: Date }): Promise<DailyCollection[]>;
}

export interface PayoutAccountSummary {
  status: 'awaiting_confirmation' | 'verified';
  aliasType: PayoutAliasType;
  /** Never the alias in clear. */
  aliasMasked: string;
  holderName: string;
  /** The test account every merchant has in test mode without registering one. */
  defaultTestAccount: boolean;
}

/** payouts: the payout account, the schedule, and the payouts themselves. */
export interface Payouts {
  /** The account is undefined in live mode until one is registered. */
  account(scope: Scope): Promise<{ account: PayoutAccountSummary | undefined; schedule: PayoutSchedule }>;
  /** Looks the alias up in the scheme's directory: the account then awaits the holder name's confirmation. */
  setAccount(scope: Scope, alias: string): Promise<PayoutAccountSummary>;
  confirmAccount(scope: Scope, holderName: string): Promise<PayoutAccountSummary>;
  setSchedule(scope: Scope, schedule: PayoutSchedule): Promise<void>;
  list(scope: Scope, page: { limit: number; startingAfter?: string }): Promise<Page<PublicPayout>>;
  get(scope: Scope, payoutId: string): Promise<PublicPayout>;
  /** An undefined amount is the whole available balance; the key makes a resubmitted form pay once. */
  create(
    scope: Scope,
    request: { amount: number | undefined; idempotencyKey: string },
  ): Promise<PublicPayout>;
}

/** webhook-dispatcher: the mode's endpoint and its delivery log. */
export interface Webhooks {
  /** Undefined while the mode has no endpoint or no URL. */
  url(scope: Scope): Promise<string | undefined>;
  setUrl(scope: Scope, url: string): Promise<void>;
  /** The current secret; a mode without an endpoint gets one, and its first secret, now. */
  secret(scope: Scope): Promise<string>;
  rollSecret(scope: Scope): Promise<string>;
  sendTestEvent(scope: Scope): Promise<string>;
  /** Most recent first; with `objectId`, only the events about that payment or payout. */
  events(
    scope: Scope,
    page: { limit: number; startingAfter?: string; objectId?: string },
  ): Promise<Page<WebhookEvent>>;
  event(scope: Scope, eventId: string): Promise<WebhookEvent>;
  resend(scope: Scope, eventId: string): Promise<void>;
}

/** The services the dashboard drives. */
export interface Peers {
  merchants: Merchants;
  payments: Payments;
  ledger: Ledger;
  webhooks: Webhooks;
  payouts: Payouts;
}

/** Test mode's bank: the customer of a request waiting there pays it now (alias …04). */
export interface TestBank {
  pay(txId: string): Promise<void>;
}
