import type { WebhookEvent } from '@sika/pispi';

/** A scheme event as kept for the record. */
export type RecordedPispiEvent = Omit<WebhookEvent, 'client' | 'alias'>;

/**
 * What of a scheme event is kept: everything but the person it names. `client` is the payer's or payee's name
 * and `alias` their account alias; neither is needed to match or replay the event (`txId`, `end2endId`), and
 * Sika keeps no customer's name.
 */
export function recordedPispiEvent(event: WebhookEvent): RecordedPispiEvent {
  const { client: _name, alias: _alias, ...kept } = event;
  return kept;
}
