import { newId, type Clock, type Logger, type RateLimitPolicy } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import type { StoredEvent } from '../domain/event';
import { deliverableEndpoint } from './deliverable-endpoint';
import { countManualSend } from './manual-send-limit';
import type { EventReader, EventStoreTransactions } from './ports';

/** What a resend and a test event need: both are manual sends, limited per endpoint. */
export interface ManualSendDeps {
  reader: EventReader;
  transactions: EventStoreTransactions;
  clock: Clock;
  logger: Logger;
  /** Test events and resends allowed per endpoint and window. */
  manualSends: RateLimitPolicy;
}

/**
 * Schedules a delivery due `now` to the scope's endpoint, counted against its manual sends, in one transaction:
 * of a stored event (its id), or of a new event stored in the same transaction first.
 */
export async function scheduleManualSend(
  { transactions, manualSends }: Pick<ManualSendDeps, 'transactions' | 'manualSends'>,
  scope: Scope,
  now: Date,
  event: string | StoredEvent,
): Promise<void> {
  await transactions.run(async (store) => {
    const endpoint = await deliverableEndpoint(store, scope);
    await countManualSend(store, endpoint.id, now, manualSends);
    if (typeof event !== 'string') await store.insertEvent(event);
    await store.scheduleDelivery({
      id: newId('dlv'),
      eventId: typeof event === 'string' ? event : event.id,
      endpointId: endpoint.id,
      dueAt: now,
    });
  });
}
