import { currentContext, currentRequestId, runWithContext, toAppError } from '@sika/platform';
import type { AppError } from '@sika/platform';
import type { AttemptOutcome } from '../domain/attempt';
import { isPastDeadline } from '@sika/rules';
import { applyAttemptOutcome, type Outcome } from '../domain/lifecycle';
import { isFinal } from '../domain/payment';
import type { Attempt, AttemptFailureCode, Payment } from '../domain/payment';
import type { CommittedPayment, UseCaseContext } from './ports';
import type { PaymentRequestReply, PaymentRequestSender } from './ports';

export type SendResult =
  | { kind: 'sent' }
  | { kind: 'rejected'; failureCode: AttemptFailureCode | null }
  /** psp-connector could not be reached: the attempt stays pending and the sweeper sends it again. */
  | { kind: 'unanswered' }
  /** The payment closed before the request left: it never will. */
  | { kind: 'closed' }
  /** Someone else (a callback, another sender) recorded an answer first. */
  | { kind: 'stale' };

/** Failures that say "try again later", not "no". */
const TRANSIENT: ReadonlySet<AppError['code']> = new Set([
  'service_unavailable',
  'internal_error',
  'rate_limited',
]);

/**
 * Sends an attempt's request-to-pay through psp-connector and records the scheme's synchronous answer:
 * ENVOYE → the attempt is sent and a created payment becomes request_sent (+ event); a refusal or an
 * unknown alias → the attempt failed, the payment stays as it was; a technical failure → the payment failed. Idempotent on tx_id end to end, so sending
 * twice (in-line and sweeper, two replicas) is harmless: the first answer recorded wins.
 */
export class AttemptSender {
  private readonly inFlight = new Set<Promise<SendResult | undefined>>();

  constructor(private readonly context: UseCaseContext & { psp: PaymentRequestSender }) {}

  /**
   * Sends in the background, e.g. right after the payment's creation committed. The send keeps the request
   * id for the logs but not the deadline of the call that triggered it: that call has already answered.
   */
  sendSoon(attemptId: string, committed?: CommittedPayment): void {
    void this.sendInBackground(attemptId, committed);
  }

  /**
   * Sends as sendSoon does, and waits for the scheme's answer at most `waitMs`, and at most half of what is left
   * of the call being served: the answer, or undefined if it has not come by then (the send goes on).
   */
  async sendAndWait(
    attemptId: string,
    committed: CommittedPayment,
    waitMs: number,
  ): Promise<SendResult | undefined> {
    const deadline = currentContext()?.deadline;
    // Half of what is left of the call: the other half answers it, even on a busy host.
    const left = deadline === undefined ? waitMs : (deadline.getTime() - Date.now()) / 2;
    const sending = this.sendInBackground(attemptId, committed);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), Math.max(0, Math.min(waitMs, left)));
    });
    try {
      return await Promise.race([sending, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The send, tracked for drain(); undefined when it failed (logged; the sweeper sends again). */
  private sendInBackground(attemptId: string, committed?: CommittedPayment): Promise<SendResult | undefined> {
    const requestId = currentRequestId();
    const send = () => this.send(attemptId, committed);
    const task = (requestId === undefined ? send() : runWithContext({ requestId }, send))
      .catch((err: unknown) => {
        this.context.logger.error(
          { err, attempt_id: attemptId },
          'sending an attempt failed; the sweeper retries it',
        );
        return undefined;
      })
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
    return task;
  }

  /** Waits for background sends (graceful shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * `committed` is the payment as the caller has just committed it, which saves reading it back, and lets the
   * answer be recorded by one statement if nothing changed the payment since. A change another process
   * commits meanwhile (a cancellation) is met as when it lands during the call to psp-connector: the answer is
   * then recorded under the payment's lock, on the latest state.
   */
  async send(attemptId: string, committed?: CommittedPayment): Promise<SendResult> {
    const { db, payments, clock } = this.context;
    const payment = committed?.payment ?? (await payments.findByAttemptId(db.reader, attemptId));
    const attempt = payment?.attempts.find((each) => each.id === attemptId);
    if (payment === null || attempt === undefined) throw new Error(`attempt ${attemptId} does not exist`);
    if (attempt.status !== 'pending') return { kind: 'stale' };
    if (isFinal(payment.status) || isPastDeadline(payment.expiresAt, clock.now())) {
      return (await this.record(payment.id, attemptId, { kind: 'closed' }, committed))
        ? { kind: 'closed' }
        : { kind: 'stale' };
    }

    const reply = await this.request(payment, attemptId);
    if (reply === null) return { kind: 'unanswered' };
    const outcome: AttemptOutcome =
      reply.outcome === 'sent' ? { kind: 'sent' } : { kind: reply.outcome, reasonCode: reply.reasonCode };
    const recorded = await this.record(payment.id, attemptId, outcome, committed);
    if (recorded === null) return { kind: 'stale' };
    return reply.outcome === 'sent'
      ? { kind: 'sent' }
      : { kind: 'rejected', failureCode: recorded.failureCode };
  }

  /** The scheme's answer, or null when psp-connector could not give one now. */
  private async request(payment: Payment, attemptId: string): Promise<PaymentRequestReply | null> {
    const attempt = payment.attempts.find((each) => each.id === attemptId);
    if (attempt === undefined) throw new Error(`attempt ${attemptId} is not an attempt of ${payment.id}`);
    // Aliases are erased only once the payment is final, and nothing is sent for a final payment.
    if (attempt.payerAlias === null) throw new Error(`attempt ${attemptId} has no payer alias left`);
    try {
      return await this.context.psp.send({
        livemode: payment.livemode,
        txId: attempt.txId,
        payerAlias: attempt.payerAlias,
        amount: payment.amount,
        reason: payment.description,
        reference: payment.reference,
        expiresAt: payment.expiresAt,
        onDelivery: payment.mode === 'on_delivery',
      });
    } catch (error) {
      const appError = toAppError(error);
      // psp-connector may also answer an unknown alias as an error rather than as a REJETE outcome.
      if (appError.code === 'alias_unknown') return { outcome: 'alias_unknown', reasonCode: null };
      if (TRANSIENT.has(appError.code)) {
        this.context.logger.warn(
          { err: error, payment_id: payment.id, attempt_id: attemptId, tx_id: attempt.txId },
          'psp-connector did not answer; the attempt stays pending for the sweeper',
        );
        return null;
      }
      this.context.logger.warn(
        { error_code: appError.code, payment_id: payment.id, attempt_id: attemptId, tx_id: attempt.txId },
        'psp-connector refused the request',
      );
      return { outcome: 'rejected', reasonCode: null };
    }
  }

  /**
   * Records the outcome: in one statement if the payment is still as `committed` has it, else under the
   * payment's lock on its latest state. Returns the updated attempt, or null if the outcome was stale.
   */
  private async record(
    paymentId: string,
    attemptId: string,
    outcome: AttemptOutcome,
    committed?: CommittedPayment,
  ): Promise<Attempt | null> {
    const unlocked =
      committed === undefined ? undefined : await this.recordIfUnchanged(committed, attemptId, outcome);
    const result = unlocked ?? (await this.recordLocked(paymentId, attemptId, outcome));
    if (result.changes.length > 0) this.context.eventsCommitted();
    return result.changed ? (result.payment.attempts.find((each) => each.id === attemptId) ?? null) : null;
  }

  private recordLocked(paymentId: string, attemptId: string, outcome: AttemptOutcome): Promise<Outcome> {
    const { db, payments, clock } = this.context;
    return db.transaction(async (tx) => {
      const payment = await payments.lockById(tx, paymentId);
      if (payment === null) throw new Error(`payment ${paymentId} vanished`);
      const now = clock.now();
      const applied = applyAttemptOutcome(payment, attemptId, outcome, now);
      if (applied.changed) await payments.record(tx, payment, applied, now);
      return applied;
    });
  }

  /** The outcome applied to `committed` and recorded if the payment is unchanged since; else undefined. */
  private async recordIfUnchanged(
    committed: CommittedPayment,
    attemptId: string,
    outcome: AttemptOutcome,
  ): Promise<Outcome | undefined> {
    const { payments, clock } = this.context;
    const now = clock.now();
    const applied = applyAttemptOutcome(committed.payment, attemptId, outcome, now);
    if (!applied.changed) return undefined;
    return (await payments.recordIfUnchanged(committed, applied, now)) ? applied : undefined;
  }
}
