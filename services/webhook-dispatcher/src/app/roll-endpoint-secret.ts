import { newId, previousCredentialExpiry, type Clock, type Logger } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import { generateWebhookSecret } from '../domain/webhook-secret';
import type { DeliverWaitingEvents } from './deliver-waiting-events';
import type { EndpointRepository, RolledEndpoint } from './ports';

/**
 * Gives the merchant's endpoint for one mode a new secret, for when the old one may have leaked or is due
 * for a change. Workers read the secrets when they claim an attempt, so every attempt claimed after the roll
 * commits is signed with the new one. With an overlap (`expirePreviousAfterSeconds`, up to 7 days) the old
 * one signs too until then, as a second `v1` entry, so receivers can switch without losing deliveries; with
 * none (0) it stops at once. Like SetEndpoint, the first call creates the endpoint: without URL, or for live
 * mode with the test endpoint's, the events stored meanwhile then sent (going live reads the live secret).
 */
export class RollEndpointSecret {
  constructor(
    private readonly deps: {
      repository: EndpointRepository;
      waiting: DeliverWaitingEvents;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async execute(scope: Scope, expirePreviousAfterSeconds: number | undefined): Promise<RolledEndpoint> {
    const { repository, clock, logger } = this.deps;
    const now = clock.now();
    const rolled = await repository.rollSecret(
      scope,
      { id: newId('whe'), secret: generateWebhookSecret() },
      now,
      previousCredentialExpiry(now, expirePreviousAfterSeconds),
    );
    logger.info(
      {
        endpoint_id: rolled.endpoint.id,
        merchant_id: scope.merchantId,
        livemode: scope.livemode,
        previous_secret_expires_at: rolled.previousSecretExpiresAt?.toISOString() ?? null,
      },
      'webhook secret rolled',
    );
    await this.deps.waiting.execute(rolled.endpoint);
    return rolled;
  }
}
