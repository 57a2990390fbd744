import { AppError, ID_PREFIXES, newId, tagSpan } from '@sika/platform';
import { parsePayerAlias } from '../domain/alias';
import type { PayerAlias } from '../domain/alias';
import { resolveExpiresAt } from '../domain/expiry';
import { isRefusedAtCreation, newPayment } from '../domain/lifecycle';
import type { NewAttempt } from '../domain/lifecycle';
import type { Payment, PaymentMode } from '../domain/payment';
import { checkIdempotencyKey, checkoutTokenOf } from '@sika/rules';
import { checkNewPaymentFields } from '../domain/payment-input';
import { newTxId } from '@sika/rules';
import type { Scope } from './ports';
import type { AttemptSender } from './attempt-sender';
import type { UseCaseContext } from './ports';
import type { IdempotentRequest } from '../domain/idempotency';
import type { CommittedPayment, MerchantDirectory, MerchantProfile } from './ports';

export interface CreatePaymentCommand {
  scope: Scope;
  idempotencyKey: string | null;
  requestFingerprint: string;
  amount: bigint;
  currency: string;
  mode: PaymentMode;
  expiresAt: Date | null;
  reference: string | null;
  description: string | null;
  customerAlias: string | null;
  returnUrl: string;
  cancelUrl: string | null;
  metadata: Readonly<Record<string, string>>;
}

export interface CreatePaymentDependencies extends UseCaseContext {
  merchants: MerchantDirectory;
  sender: AttemptSender;
  /** The hosted page's origin, e.g. `http://127.0.0.1:8081`. */
  checkoutBaseUrl: string;
  /** CHECKOUT_TOKEN_KEY: the token in checkout_url is what opens the page, not the payment id. */
  checkoutTokenKey: string;
  /** How long the in-line send owns a new attempt before the sweeper may send it. */
  dispatchGraceMs: number;
  /** How long a creation with customer_alias waits for the scheme's first answer (an unknown alias). */
  schemeAnswerWaitMs: number;
}

/** `<base>/pay/<payment id>/<token>`: the customer's link, as secret as Stripe's client_secret. */
export function checkoutUrlOf(baseUrl: string, paymentId: string, tokenKey: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/pay/${paymentId}/${checkoutTokenOf(tokenKey, paymentId)}`;
}

/**
 * POST /v1/payments (spec §4.1): the payment, its idempotency key and, with customer_alias, its first attempt
 * in one transaction; the answer is the payment as committed (`created`). The first attempt's request leaves
 * right after the commit, and the creation waits a moment for the scheme's first answer: an alias it does not
 * know is alias_unknown (spec §1, §7), and the payment, its attempt and its key are deleted, leaving nothing.
 */
export class CreatePayment {
  constructor(private readonly dependencies: CreatePaymentDependencies) {}

  async execute(command: CreatePaymentCommand): Promise<Payment> {
    const { db, payments, idempotencyKeys, clock, merchants, sender } = this.dependencies;
    checkNewPaymentFields(command);
    if (command.idempotencyKey !== null) checkIdempotencyKey(command.idempotencyKey);
    if (command.idempotencyKey !== null && command.requestFingerprint === '') {
      throw new AppError('parameter_missing', 'request_fingerprint is required with an idempotency key.', {
        param: 'request_fingerprint',
      });
    }
    const alias = command.customerAlias === null ? null : parsePayerAlias(command.customerAlias);
    const merchant = await merchants.profileOf(command.scope.merchantId);

    const idempotencyKey = command.idempotencyKey;
    const { payment, committed } =
      idempotencyKey === null
        ? // The payment and its attempts are one statement: atomic without a transaction around it.
          await this.insertNew((fresh) => payments.insertAlone(fresh), command, merchant, alias, clock.now())
        : await db.transaction(async (tx) => {
            const now = clock.now();
            const idempotency: IdempotentRequest = {
              scope: { ...command.scope, key: idempotencyKey },
              operation: 'create_payment',
              fingerprint: command.requestFingerprint,
              now,
            };
            const replayedId = await idempotencyKeys.claim(tx, idempotency);
            if (replayedId !== null) {
              const replayed = await payments.findInScope(tx, command.scope, replayedId);
              if (replayed === null)
                throw new Error(`idempotency key points to a missing payment ${replayedId}`);
              return { payment: replayed, committed: null };
            }
            const inserted = await this.insertNew(
              (fresh) => payments.insert(tx, fresh),
              command,
              merchant,
              alias,
              now,
            );
            await idempotencyKeys.remember(tx, idempotency, inserted.payment.id);
            return inserted;
          });

    const firstAttempt = payment.attempts[0];
    tagSpan({ paymentId: payment.id, attemptId: firstAttempt?.id });
    if (committed === null || firstAttempt === undefined) return payment;
    const sent = await sender.sendAndWait(firstAttempt.id, committed, this.dependencies.schemeAnswerWaitMs);
    if (sent?.kind === 'rejected' && sent.failureCode === 'alias_unknown') {
      await this.discard(
        payment.id,
        idempotencyKey === null ? null : { ...command.scope, key: idempotencyKey },
      );
      throw new AppError('alias_unknown', 'The customer alias is unknown to the payment scheme.', {
        param: 'customer_alias',
      });
    }
    return payment;
  }

  /** Deletes a payment refused for its alias, and its key: the same request may be sent again. */
  private async discard(paymentId: string, key: IdempotentRequest['scope'] | null): Promise<void> {
    const { db, payments, idempotencyKeys } = this.dependencies;
    await db.transaction(async (tx) => {
      const current = await payments.lockById(tx, paymentId);
      if (current === null || !isRefusedAtCreation(current)) return;
      if (key !== null) await idempotencyKeys.forget(tx, key);
      await payments.delete(tx, paymentId);
    });
  }

  /**
   * Builds the new payment and inserts it with `insert`. Time-dependent rules are checked here, after any replay
   * check: a replay answers with the payment even once its expires_at would no longer be accepted.
   */
  private async insertNew(
    insert: (payment: Payment) => Promise<string>,
    command: CreatePaymentCommand,
    merchant: MerchantProfile,
    alias: PayerAlias | null,
    now: Date,
  ): Promise<{ payment: Payment; committed: CommittedPayment }> {
    const expiresAt = resolveExpiresAt(
      command.mode,
      command.expiresAt ?? undefined,
      now,
      command.idempotencyKey === null,
    );
    const id = newId(ID_PREFIXES.payment);
    const fresh = newPayment(
      {
        id,
        merchantId: command.scope.merchantId,
        livemode: command.scope.livemode,
        amount: command.amount,
        mode: command.mode,
        feeRule: merchant.feeRule,
        merchantName: merchant.name,
        reference: command.reference,
        description: command.description,
        returnUrl: command.returnUrl,
        cancelUrl: command.cancelUrl,
        checkoutUrl: checkoutUrlOf(this.dependencies.checkoutBaseUrl, id, this.dependencies.checkoutTokenKey),
        metadata: command.metadata,
        expiresAt,
        firstAttempt: alias === null ? null : this.firstAttempt(alias, now),
      },
      now,
    );
    const version = await insert(fresh);
    return { payment: fresh, committed: { payment: fresh, version } };
  }

  private firstAttempt(alias: PayerAlias, now: Date): NewAttempt {
    return {
      id: newId(ID_PREFIXES.attempt),
      txId: newTxId(),
      alias,
      dispatchAfter: new Date(now.getTime() + this.dependencies.dispatchGraceMs),
    };
  }
}
