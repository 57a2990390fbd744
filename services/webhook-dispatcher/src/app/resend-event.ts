import type { Scope } from '@sika/platform/pure';
import { eventInScope } from './get-event';
import { scheduleManualSend, type ManualSendDeps } from './manual-send';
import type { EventView } from './ports';

/**
 * Sends an event again, as Stripe's resend does: the same `evt_` id and body, so a receiver that already
 * processed it recognises it. Its delivery becomes pending and due now whatever its state; the worker that
 * claims it reads the endpoint's current URL and secret, and numbers the attempt after the earlier ones.
 * From there the ordinary rule applies: a 2xx delivers it, a failure waits for the next retry of the
 * schedule, or fails it after the sixth attempt. An event stored while the endpoint had no URL gets its
 * first delivery.
 */
export class ResendEvent {
  constructor(private readonly deps: ManualSendDeps) {}

  async execute(scope: Scope, eventId: string): Promise<EventView> {
    const { reader, clock, logger } = this.deps;
    await eventInScope(reader, scope, eventId, 'event_id');
    await scheduleManualSend(this.deps, scope, clock.now(), eventId);
    logger.info({ event_id: eventId, merchant_id: scope.merchantId }, 'event resent');
    return eventInScope(reader, scope, eventId, 'event_id');
  }
}
