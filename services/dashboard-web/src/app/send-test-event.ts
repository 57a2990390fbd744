import type { Scope } from '@sika/platform/pure';

import type { Peers } from './ports';

/** A `webhook.test` event to the endpoint, delivered (and retried) like every other; answers its id. */
export class SendTestEvent {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'> }) {}

  execute(scope: Scope): Promise<string> {
    return this.dependencies.peers.webhooks.sendTestEvent(scope);
  }
}
