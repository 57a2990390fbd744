import { verifySignature, WebhookEventsList, type WebhookEvent } from '@sika/pispi';
import { AppError, type Clock, type Logger } from '@sika/platform';

import { recordedSchemeEvent } from '../domain/callback-record';
import type { Mode } from '../domain/mode';
import { afterVerdict } from '../domain/fund-return';
import { afterVerdict as afterTransferVerdict } from '../domain/payout-transfer';
import { effectOfDecision, type PaymentRequestUpdate } from '../domain/payment-request';
import { isWholeAmount, meaningOfEvent, type SchemeEventMeaning } from '../domain/pispi-transformers';
import type { CallbackEventReceipt, CallbackStore, CallbackUnit, SchemeWebhookAccess } from './ports';

export interface SchemeCallback {
  mode: Mode;
  /** The body exactly as received: X-Signature is computed over these bytes. */
  rawBody: Buffer;
  signature: string | undefined;
}

export interface CallbackResult {
  published: number;
  duplicates: number;
}

/**
 * A signed callback of the scheme. The signature is checked first (a wrong one is refused with no effect);
 * then, in one transaction, each event is recorded by its identifier (mode, code, end-to-end id), so a
 * redelivered callback does nothing twice, and each decision about a request Sika sent updates that request
 * and writes psp.payment_request.updated to the outbox; a fund return's or a payout transfer's verdict ends it
 * and writes its news the same way. The usual callback, one event bringing a request's first decision, is
 * all that in one statement without the transaction's lock (recordFirstDecision), and takes the transaction
 * only when that statement finds the request decided, missing, or the event recorded already.
 */
export class HandleSchemeCallback {
  constructor(
    private readonly deps: {
      /** The mode's registration, whose secret signs its callbacks. */
      webhooks: Pick<SchemeWebhookAccess, 'find'>;
      store: CallbackStore;
      clock: Clock;
      logger: Logger;
      /** Told after a commit that published something, so the relay need not wait for its next poll. */
      onPublished: () => void;
      /** Told when a rejected fund return is due to be sent again. */
      onFundReturnDue: (at: Date) => void;
      /** Sika's account alias in each configured mode: a payment to another is never credited. */
      payeeAliases: Readonly<Partial<Record<Mode, string>>>;
    },
  ) {}

  async execute(callback: SchemeCallback): Promise<CallbackResult> {
    const webhook = await this.deps.webhooks.find(callback.mode);
    if (!webhook) {
      throw new AppError(
        'service_unavailable',
        `No callback URL is registered yet for ${callback.mode} mode.`,
      );
    }
    if (!verifySignature(callback.rawBody, webhook.secret, callback.signature)) {
      throw new AppError('signature_invalid', 'The X-Signature header does not match the body.', {
        param: 'X-Signature',
      });
    }
    const events = parseEvents(callback.rawBody);
    const receivedAt = this.deps.clock.now();
    const [single] = events;
    const result =
      events.length === 1 &&
      single !== undefined &&
      (await this.applyFirstDecision(callback.mode, single, receivedAt))
        ? { published: 1, duplicates: 0 }
        : await this.deps.store.inTransaction(async (unit) => {
            const outcome: CallbackResult = { published: 0, duplicates: 0 };
            for (const event of events) {
              const effect = await this.apply(unit, callback.mode, event, receivedAt);
              if (effect === 'duplicate') outcome.duplicates += 1;
              if (effect === 'published') outcome.published += 1;
            }
            return outcome;
          });
    if (result.published > 0) this.deps.onPublished();
    // A callback whose every event was news is routine (debug); duplicates, stale or unmatched events stay visible.
    this.deps.logger[result.published === events.length ? 'debug' : 'info'](
      {
        mode: callback.mode,
        events: events.map(({ evCode, txId }) => ({ ev_code: evCode, tx_id: txId })),
        ...result,
      },
      'scheme callback processed',
    );
    return result;
  }

  /**
   * A decision that, on a request without one, is recorded and published (effectOfDecision): written in one
   * statement if the request has none yet. False when it was not, for the transaction to apply the event.
   */
  private async applyFirstDecision(mode: Mode, event: WebhookEvent, receivedAt: Date): Promise<boolean> {
    const meaning = meaningOfEvent(event, this.deps.payeeAliases[mode]);
    if (meaning.kind !== 'decision') return false;
    const effect = effectOfDecision(null, meaning.decision);
    if (!effect.record || !effect.publish) return false;
    return this.deps.store.recordFirstDecision(
      receiptOf(mode, event, meaning, 'published', receivedAt),
      updateOf(mode, meaning),
      paymentEnd2endIdOf(meaning),
    );
  }

  private async apply(
    unit: CallbackUnit,
    mode: Mode,
    event: WebhookEvent,
    receivedAt: Date,
  ): Promise<CallbackEventReceipt['effect'] | 'duplicate'> {
    const meaning = meaningOfEvent(event, this.deps.payeeAliases[mode]);
    const record = async (effect: CallbackEventReceipt['effect']) =>
      (await unit.recordEvent(receiptOf(mode, event, meaning, effect, receivedAt))) ? effect : 'duplicate';

    if (meaning.kind === 'ignored') return record('ignored');
    if (meaning.kind === 'payout_transfer') {
      const transfer = await unit.lockTransfer(mode, meaning.payoutId);
      if (!transfer) return record('unmatched');
      const step = afterTransferVerdict(
        transfer.state,
        meaning.verdict === 'paid'
          ? { result: 'PAID' }
          : { result: 'FAILED', reasonCode: meaning.reasonCode },
      );
      const recorded = await record(step === null ? 'stale' : 'published');
      if (recorded === 'duplicate' || step === null) return recorded;
      await unit.recordTransferStep(
        transfer,
        step,
        { reasonCode: meaning.reasonCode, end2endId: meaning.end2endId },
        receivedAt,
      );
      return recorded;
    }
    if (meaning.kind === 'fund_return') {
      const fundReturn = await unit.lockFundReturn(mode, meaning.end2endId);
      if (!fundReturn) return record('unmatched');
      const step = afterVerdict(fundReturn.state, meaning.verdict, receivedAt);
      const recorded = await record(step === null ? 'stale' : step.outcome ? 'published' : 'applied');
      if (recorded === 'duplicate' || step === null) return recorded;
      await unit.recordFundReturnStep(fundReturn, step, meaning.reasonCode, receivedAt);
      if (step.nextAttemptAt) this.deps.onFundReturnDue(step.nextAttemptAt);
      if (step.outcome === 'ABANDONED') {
        this.deps.logger.error(
          {
            tx_id: fundReturn.txId,
            mode,
            reason_code: meaning.reasonCode,
            attempts: fundReturn.state.attempts,
          },
          'the participant keeps rejecting a fund return: abandoned, an operator must return the money',
        );
      }
      return recorded;
    }
    const request = await unit.lockRequest(mode, meaning.txId);
    if (!request) return record('unmatched');
    const effect = effectOfDecision(request.decision, meaning.decision);
    const recorded = await record(effect.publish ? 'published' : 'stale');
    if (recorded === 'duplicate') return recorded;

    if (effect.record) {
      await unit.recordDecision(
        meaning.txId,
        meaning.decision,
        meaning.reasonCode,
        paymentEnd2endIdOf(meaning),
        receivedAt,
      );
    }
    if (effect.publish) await unit.publish(updateOf(mode, meaning));
    return recorded;
  }
}

type Decision = Extract<SchemeEventMeaning, { kind: 'decision' }>;

/** How an event is recorded: by its identifier (mode, code, end-to-end id, and a fund return's date). */
function receiptOf(
  mode: Mode,
  event: WebhookEvent,
  meaning: SchemeEventMeaning,
  effect: CallbackEventReceipt['effect'],
  receivedAt: Date,
): CallbackEventReceipt {
  return {
    mode,
    evCode: event.evCode,
    end2endId: event.end2endId,
    occurrence: meaning.kind === 'fund_return' ? event.evDate : '',
    txId: event.txId,
    event: recordedSchemeEvent(event),
    effect,
    receivedAt,
  };
}

function updateOf(mode: Mode, meaning: Decision): PaymentRequestUpdate {
  return {
    livemode: mode === 'live',
    txId: meaning.txId,
    decision: meaning.decision,
    reasonCode: meaning.reasonCode,
    endToEndId: meaning.endToEndId,
    amount: meaning.amount,
    occurredAt: meaning.occurredAt,
    payeeMismatch: meaning.payeeMismatch,
  };
}

/** The end-to-end id of the payment that settled the request, kept to return that money if need be. */
function paymentEnd2endIdOf(meaning: Decision): string | undefined {
  return meaning.decision === 'PAID' ? meaning.endToEndId : undefined;
}

/** The body as a WebhookEventsList with whole XOF amounts; 400 naming the first bad field otherwise. */
function parseEvents(rawBody: Buffer): WebhookEvent[] {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch (error) {
    throw new AppError('invalid_json', 'The request body could not be parsed as JSON.', { cause: error });
  }
  const parsed = WebhookEventsList.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      'parameter_invalid',
      `Invalid callback body: ${issue?.message ?? 'unexpected shape'}.`,
      {
        param: issue?.path.join('.') || 'body',
      },
    );
  }
  parsed.data.data.forEach((event, index) => {
    if (!isWholeAmount(event.montant)) {
      throw new AppError('parameter_invalid', 'montant must be a whole number of XOF.', {
        param: `data.${index}.montant`,
      });
    }
  });
  return parsed.data.data;
}
