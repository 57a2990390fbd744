import type { Peers } from './ports';
import type { Scope } from './scope';

/** A new `whsec_` secret: every delivery from now on is signed with it alone. */
export class RollWebhookSecret {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'> }) {}

  execute(scope: Scope): Promise<string> {
    return this.dependencies.peers.webhooks.rollSecret(scope);
  }
}
