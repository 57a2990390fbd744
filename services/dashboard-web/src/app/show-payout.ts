import type { Scope } from '@sika/platform/pure';
import type { PublicPayout } from '@sika/public-api';

import type { Peers, WebhookEvent } from './ports';
import { RECORD_EVENTS_LIMIT } from './show-payment';

export interface PayoutView {
  payout: PublicPayout;
  /** The events sent about it, most recent first. */
  events: WebhookEvent[];
}

export class ShowPayout {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'payouts' | 'webhooks'> }) {}

  async execute(scope: Scope, payoutId: string): Promise<PayoutView> {
    const { payouts, webhooks } = this.dependencies.peers;
    const payout = await payouts.get(scope, payoutId);
    const events = await webhooks.events(scope, { limit: RECORD_EVENTS_LIMIT, objectId: payout.id });
    return { payout, events: events.items };
  }
}
