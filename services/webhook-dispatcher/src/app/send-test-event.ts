import { newId } from '@sika/platform';
import { buildTestEvent } from '../domain/event';
import type { Scope } from '@sika/platform/pure';
import { eventInScope } from './get-event';
import { scheduleManualSend, type ManualSendDeps } from './manual-send';
import type { EventView } from './ports';

/**
 * Records a `webhook.test` event and schedules its delivery now, in one transaction: from there it is an
 * event like the others (signed, retried, listed, resendable), so the merchant tests the real path.
 */
export class SendTestEvent {
  constructor(private readonly deps: ManualSendDeps) {}

  async execute(scope: Scope): Promise<EventView> {
    const { reader, clock, logger } = this.deps;
    const now = clock.now();
    const event = buildTestEvent({ id: newId('evt'), scope, createdAt: now });
    await scheduleManualSend(this.deps, scope, now, event);
    logger.info({ event_id: event.id, merchant_id: scope.merchantId }, 'test event stored');
    return eventInScope(reader, scope, event.id, 'event_id');
  }
}
