import type { Clock, IdempotentRequest, Logger } from '@sika/platform';
import type { PayoutSchedule } from '@sika/rules';
import type { PayoutAccount, TestPayoutAccount } from '../domain/payout-account';
import type { Payout, VisiblePayout } from '../domain/payout';
import type { Scope } from '@sika/platform/pure';

export type { Scope };

/** An open database transaction, opaque to the use cases. */
export type Transaction = object;

export interface PayoutListQuery {
  scope: Scope;
  take: number;
  startingAfter?: string;
  status?: 'pending' | 'paid' | 'failed';
  /** Inclusive. */
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
}

export interface PayoutsAudit {
  pending: { merchantId: string; amount: bigint }[];
  settled: { payoutId: string; status: 'paid' | 'failed' }[];
}

export interface PayoutStore {
  /**
   * Records a new payout under its Idempotency-Key, in one transaction serialized per key (a request with the
   * key in flight is `idempotency_key_in_use`): `replay` with the payout the key answered before, or
   * `recorded`. The key's other request is `idempotency_key_reused`.
   */
  recordRequested(
    request: IdempotentRequest,
    payout: Payout,
    leaseUntil: Date,
  ): Promise<{ kind: 'recorded' } | { kind: 'replay'; payout: Payout }>;
  /** Records the automatic payout of a day: false when that merchant and mode already has the day's payout. */
  recordAutomatic(payout: Payout, leaseUntil: Date): Promise<boolean>;
  /**
   * Takes over the reservation of a `reserving` payout whose lease ran out (its request died or gave up),
   * leasing it until `leaseUntil`; undefined when it is not `reserving` or another holds a live lease.
   */
  takeOverReservation(payoutId: string, leaseUntil: Date, now: Date): Promise<Payout | undefined>;
  /** `reserving` payouts whose lease ran out, oldest first. */
  abandonedReservations(now: Date, limit: number): Promise<string[]>;
  /**
   * The ledger reserved `amount`: the payout becomes `pending` and its transfer is requested (outbox), in one
   * transaction. Undefined if it was already past `reserving`.
   */
  markReserved(
    payoutId: string,
    amount: bigint,
    reason: (payout: Payout) => string,
  ): Promise<Payout | undefined>;
  /** The ledger refused the reservation: the payout becomes `refused` and its key is freed. */
  markRefused(payoutId: string): Promise<void>;
  findInScope(scope: Scope, payoutId: string): Promise<VisiblePayout | undefined>;
  list(query: PayoutListQuery): Promise<{ payouts: VisiblePayout[]; hasMore: boolean }>;
  /** The payout, locked for the caller's transaction. */
  lockById(tx: Transaction, payoutId: string): Promise<Payout | undefined>;
  /** Saves a settled payout and writes its event to the outbox, in `tx`. */
  recordSettled(tx: Transaction, payout: VisiblePayout, occurredAt: Date): Promise<void>;
  audit(livemode: boolean): Promise<PayoutsAudit>;
  /** Each of these payouts that exists, with its status, internal ones included. */
  findStatuses(payoutIds: readonly string[]): Promise<{ payoutId: string; status: string }[]>;
}

export interface AccountStore {
  find(scope: Scope): Promise<PayoutAccount | undefined>;
  /** The registered accounts of several merchants of a mode. */
  findMany(livemode: boolean, merchantIds: readonly string[]): Promise<Map<string, PayoutAccount>>;
  save(account: PayoutAccount, now: Date): Promise<void>;
  /** Verifies the account if it awaits confirmation of exactly this holder name; the verified account, or undefined. */
  confirm(scope: Scope, holderName: string, now: Date): Promise<PayoutAccount | undefined>;
  schedule(scope: Scope): Promise<PayoutSchedule>;
  /** Of these merchants, those whose schedule in the mode is manual. */
  manualSchedules(livemode: boolean, merchantIds: readonly string[]): Promise<Set<string>>;
  setSchedule(scope: Scope, schedule: PayoutSchedule, now: Date): Promise<void>;
  isRunComplete(day: string, livemode: boolean): Promise<boolean>;
  completeRun(day: string, livemode: boolean, now: Date): Promise<void>;
}

export interface Ledger {
  /** The amount reserved (a repeat returns the first reservation's); `balance_insufficient` when short. */
  reservePayout(scope: Scope, payoutId: string, amount: bigint | null): Promise<bigint>;
  payableBalances(
    livemode: boolean,
    startingAfter: string | undefined,
    limit: number,
  ): Promise<{ merchantIds: string[]; hasMore: boolean }>;
}

export type LookupOutcome = 'found' | 'unknown' | 'failed';

/** Every look-up of a payee's name, kept for audit; live ones are counted against their limits. */
export interface PayeeLookupLog {
  /**
   * Records a look-up about to be made, unless a limit refuses it (checked and recorded atomically, so that
   * concurrent look-ups cannot all pass): its id, or the refusal.
   */
  begin(
    lookup: Scope & { aliasMasked: string; requestedAt: Date },
  ): Promise<{ id: bigint } | { refused: 'merchant' | 'global'; retryAfterSeconds: number }>;
  finish(id: bigint, outcome: LookupOutcome): Promise<void>;
}

export interface PayeeDirectory {
  lookUp(
    livemode: boolean,
    alias: string,
  ): Promise<
    | { found: true; holderName: string; holderCountry: string | null }
    | { found: false; reasonCode: string | null }
  >;
}

export interface UseCaseContext {
  payouts: PayoutStore;
  accounts: AccountStore;
  testAccount: TestPayoutAccount;
  clock: Clock;
  logger: Logger;
}
