import type { WebhookEvent } from '@sika/pispi';

import { recordedPispiEvent } from '../domain/callback-record';
import type { Mode } from '../domain/mode';
import type { PispiEventMeaning } from '../domain/pispi-transformers';
import type { CallbackEventReceipt, CallbackUnit } from './ports';

/** One event of a verified callback, with what it means to Sika. */
export interface CallbackEvent<M extends PispiEventMeaning = PispiEventMeaning> {
  mode: Mode;
  event: WebhookEvent;
  meaning: M;
  receivedAt: Date;
}

/** What applying an event did; `duplicate` when it had been recorded before, and then nothing else was done. */
export type AppliedEffect = CallbackEventReceipt['effect'] | 'duplicate';

/** How an event is recorded: by its identifier (mode, code, end-to-end id, and a fund return's date). */
export function receiptOf(
  { mode, event, meaning, receivedAt }: CallbackEvent,
  effect: CallbackEventReceipt['effect'],
): CallbackEventReceipt {
  return {
    mode,
    evCode: event.evCode,
    end2endId: event.end2endId,
    occurrence: meaning.kind === 'fund_return' ? event.evDate : '',
    txId: event.txId,
    event: recordedPispiEvent(event),
    effect,
    receivedAt,
  };
}

/** Records the event once, with its effect; `duplicate` for a redelivery, which must then change nothing. */
export async function recordCallbackEvent(
  unit: CallbackUnit,
  received: CallbackEvent,
  effect: CallbackEventReceipt['effect'],
): Promise<AppliedEffect> {
  return (await unit.recordEvent(receiptOf(received, effect))) ? effect : 'duplicate';
}
