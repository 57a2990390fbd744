import type { PispiEventMeaning } from '../domain/pispi-transformers';
import { afterVerdict } from '../domain/payout-transfer';
import { recordCallbackEvent, type AppliedEffect, type CallbackEvent } from './callback-event';
import type { CallbackUnit } from './ports';

type TransferVerdict = Extract<PispiEventMeaning, { kind: 'payout_transfer' }>;

/**
 * The participant's verdict on a payout's transfer (PAIEMENT_ENVOYE or PAIEMENT_REJETE), in the callback's
 * transaction: the transfer's next step and, when it ends it, psp.payout_transfer.updated in the outbox.
 */
export class ApplyPayoutTransferVerdict {
  async execute(unit: CallbackUnit, received: CallbackEvent<TransferVerdict>): Promise<AppliedEffect> {
    const { meaning, mode, receivedAt } = received;
    const transfer = await unit.lockTransfer(mode, meaning.payoutId);
    if (!transfer) return recordCallbackEvent(unit, received, 'unmatched');
    const step = afterVerdict(
      transfer.state,
      meaning.verdict === 'paid' ? { result: 'PAID' } : { result: 'FAILED', reasonCode: meaning.reasonCode },
    );
    const recorded = await recordCallbackEvent(unit, received, step === null ? 'stale' : 'published');
    if (recorded === 'duplicate' || step === null) return recorded;
    await unit.recordTransferStep(
      transfer,
      step,
      { reasonCode: meaning.reasonCode, end2endId: meaning.end2endId },
      receivedAt,
    );
    return recorded;
  }
}
