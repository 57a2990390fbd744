import type { Scope } from '@sika/platform/pure';

import type { Peers, WebhookEvent } from './ports';

/** One event of the delivery log, with every attempt (time, status, duration) and the next retry. */
export class ShowEvent {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'> }) {}

  execute(scope: Scope, eventId: string): Promise<WebhookEvent> {
    return this.dependencies.peers.webhooks.event(scope, eventId);
  }
}
