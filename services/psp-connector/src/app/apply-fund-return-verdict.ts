import type { Logger } from '@sika/platform';

import { afterVerdict } from '../domain/fund-return';
import type { PispiEventMeaning } from '../domain/pispi-transformers';
import { recordCallbackEvent, type AppliedEffect, type CallbackEvent } from './callback-event';
import type { CallbackUnit } from './ports';

type FundReturnVerdict = Extract<PispiEventMeaning, { kind: 'fund_return' }>;

/**
 * The participant's verdict on a fund return (RETOUR_ENVOYE or RETOUR_REJETE), in the callback's transaction:
 * the return's next step (sent, to send again, or abandoned), its news in the outbox when it ends.
 */
export class ApplyFundReturnVerdict {
  constructor(
    private readonly deps: {
      logger: Logger;
      /** Told when a rejected fund return is due to be sent again. */
      onFundReturnDue: (at: Date) => void;
    },
  ) {}

  async execute(unit: CallbackUnit, received: CallbackEvent<FundReturnVerdict>): Promise<AppliedEffect> {
    const { meaning, mode, receivedAt } = received;
    const fundReturn = await unit.lockFundReturn(mode, meaning.end2endId);
    if (!fundReturn) return recordCallbackEvent(unit, received, 'unmatched');
    const step = afterVerdict(fundReturn.state, meaning.verdict, receivedAt);
    const recorded = await recordCallbackEvent(
      unit,
      received,
      step === null ? 'stale' : step.outcome ? 'published' : 'applied',
    );
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
}
