import type { Scope } from '@sika/platform/pure';

import type { ChangeNotice, Notified } from './change-notice';
import type { Peers } from './ports';

/** The endpoint's `whsec_` secret, read only when the merchant asks to see it; its owner is told by email. */
export class RevealWebhookSecret {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'>; notice: ChangeNotice }) {}

  execute(scope: Scope, notified: Notified): Promise<string> {
    const { peers, notice } = this.dependencies;
    return notice.around(scope, notified, 'webhook_secret_revealed', () => peers.webhooks.secret(scope));
  }
}
