import type { Peers } from './ports';
import type { Scope } from './scope';

/** The endpoint's `whsec_` secret, read only when the merchant asks to see it. */
export class RevealWebhookSecret {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'> }) {}

  execute(scope: Scope): Promise<string> {
    return this.dependencies.peers.webhooks.secret(scope);
  }
}
