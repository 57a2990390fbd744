import type { Scope } from '@sika/platform/pure';
import type { PublicPayment } from '@sika/public-api';

import type { Peers, WebhookEvent } from './ports';

/** A payment goes through a handful of statuses: one page of its events holds them all. */
export const RECORD_EVENTS_LIMIT = 20;

export interface PaymentView {
  payment: PublicPayment;
  /** The events sent about it, most recent first. */
  events: WebhookEvent[];
}

/** One payment of the merchant in this mode, with its attempts (in the API's shape) and its events. */
export class ShowPayment {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payments' | 'webhooks'> }) {}

  async execute(scope: Scope, paymentId: string): Promise<PaymentView> {
    const { payments, webhooks } = this.dependencies.peers;
    // The payment first: an unknown id is a 404 before the events are asked for.
    const payment = await payments.get(scope, paymentId);
    const events = await webhooks.events(scope, { limit: RECORD_EVENTS_LIMIT, objectId: payment.id });
    return { payment, events: events.items };
  }
}
