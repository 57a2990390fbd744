import type { Scope } from '@sika/platform/pure';

import type { Peers } from './ports';

/** Sets or changes the mode's endpoint URL; webhook-dispatcher validates it and keeps the secret. */
export class SetWebhookUrl {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'> }) {}

  execute(scope: Scope, url: string): Promise<void> {
    return this.dependencies.peers.webhooks.setUrl(scope, url.trim());
  }
}
