import { parseCallbackBody, type WebhookEvent } from '@sika/pispi';
import { AppError, type Clock, type Logger } from '@sika/platform';

import type { Mode } from '../domain/mode';
import { effectOfDecision } from '../domain/payment-request';
import { meaningOfEvent } from '../domain/pispi-transformers';
import type { ApplyFundReturnVerdict } from './apply-fund-return-verdict';
import {
  paymentEnd2endIdOf,
  paymentRequestUpdateOf,
  type ApplyPayerDecision,
  type PayerDecisionEvent,
} from './apply-payer-decision';
import type { ApplyPayoutTransferVerdict } from './apply-payout-transfer-verdict';
import { receiptOf, recordCallbackEvent, type AppliedEffect, type CallbackEvent } from './callback-event';
import type { CallbackStore, CallbackUnit } from './ports';
import type { VerifyCallbackSignature } from './verify-callback-signature';

export interface PispiCallback {
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
 * redelivered callback does nothing twice, and applied by the flow its meaning names: a payer's decision, a
 * fund return's verdict or a payout transfer's verdict. The usual callback, one event bringing a request's
 * first decision, is all that in one statement without the transaction's lock (recordFirstDecision), and
 * takes the transaction only when that statement finds the request decided, missing, or the event recorded
 * already.
 */
export class HandlePispiCallback {
  constructor(
    private readonly deps: {
      verifySignature: VerifyCallbackSignature;
      flows: {
        payerDecision: ApplyPayerDecision;
        fundReturnVerdict: ApplyFundReturnVerdict;
        payoutTransferVerdict: ApplyPayoutTransferVerdict;
      };
      store: CallbackStore;
      clock: Clock;
      logger: Logger;
      /** Told after a commit that published something, so the relay need not wait for its next poll. */
      onPublished: () => void;
      /** Sika's account alias in each configured mode: a payment to another is never credited. */
      payeeAliases: Readonly<Partial<Record<Mode, string>>>;
    },
  ) {}

  async execute(callback: PispiCallback): Promise<CallbackResult> {
    await this.deps.verifySignature.execute(callback);
    const events = eventsOf(callback.rawBody);
    const receivedAt = this.deps.clock.now();
    const received = events.map((event): CallbackEvent => ({
      mode: callback.mode,
      event,
      meaning: meaningOfEvent(event, this.deps.payeeAliases[callback.mode]),
      receivedAt,
    }));
    const [single] = received;
    const result =
      received.length === 1 && single !== undefined && (await this.applyFirstDecision(single))
        ? { published: 1, duplicates: 0 }
        : await this.deps.store.inTransaction(async (unit) => {
            const outcome: CallbackResult = { published: 0, duplicates: 0 };
            for (const event of received) {
              const effect = await this.apply(unit, event);
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
  private async applyFirstDecision(received: CallbackEvent): Promise<boolean> {
    if (!isPayerDecision(received)) return false;
    const effect = effectOfDecision(null, received.meaning.decision);
    if (!effect.record || !effect.publish) return false;
    return this.deps.store.recordFirstDecision(
      receiptOf(received, 'published'),
      paymentRequestUpdateOf(received),
      paymentEnd2endIdOf(received),
    );
  }

  private apply(unit: CallbackUnit, received: CallbackEvent): Promise<AppliedEffect> {
    const { flows } = this.deps;
    const { meaning } = received;
    switch (meaning.kind) {
      case 'ignored':
        return recordCallbackEvent(unit, received, 'ignored');
      case 'payout_transfer':
        return flows.payoutTransferVerdict.execute(unit, { ...received, meaning });
      case 'fund_return':
        return flows.fundReturnVerdict.execute(unit, { ...received, meaning });
      case 'decision':
        return flows.payerDecision.execute(unit, { ...received, meaning });
    }
  }
}

function isPayerDecision(received: CallbackEvent): received is PayerDecisionEvent {
  return received.meaning.kind === 'decision';
}

/** The body's events (parseCallbackBody); 400 naming the first bad field otherwise. */
function eventsOf(rawBody: Buffer): WebhookEvent[] {
  const body = parseCallbackBody(rawBody);
  if (body.ok) return body.events;
  if (body.problem === 'invalid_json') {
    throw new AppError('invalid_json', 'The request body could not be parsed as JSON.', {
      cause: body.cause,
    });
  }
  throw new AppError('parameter_invalid', body.message, { param: body.param });
}
