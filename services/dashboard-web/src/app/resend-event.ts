import type { Scope } from '@sika/platform/pure';

import type { Peers } from './ports';

/** Delivers the event once more, now, to the current URL with the current secret (same `evt_` id). */
export class ResendEvent {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'> }) {}

  execute(scope: Scope, eventId: string): Promise<void> {
    return this.dependencies.peers.webhooks.resend(scope, eventId);
  }
}
