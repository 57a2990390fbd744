import type { Scope } from '@sika/platform/pure';

import type { ChangeNotice, Notified } from './change-notice';
import type { Peers } from './ports';

/** A new `whsec_` secret: every delivery from now on is signed with it alone. Its owner is told by email. */
export class RollWebhookSecret {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'>; notice: ChangeNotice }) {}

  execute(scope: Scope, notified: Notified): Promise<string> {
    const { peers, notice } = this.dependencies;
    return notice.around(scope, notified, 'webhook_secret_rolled', () => peers.webhooks.rollSecret(scope));
  }
}
