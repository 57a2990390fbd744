import { newId, type Clock, type Logger } from '@sika/platform';
import type { Scope } from '../domain/scope';
import { generateWebhookSecret } from '../domain/webhook-secret';
import type { Endpoint, EndpointRepository } from './ports';

/**
 * Gives the merchant's endpoint for one mode a new secret, for when the old one may have leaked. The old one
 * is not kept: workers read the secret when they claim an attempt, so every attempt claimed after the roll
 * commits is signed with the new one. Like SetEndpoint, the first call creates the endpoint (without URL).
 */
export class RollEndpointSecret {
  constructor(private readonly deps: { repository: EndpointRepository; clock: Clock; logger: Logger }) {}

  async execute(scope: Scope): Promise<Endpoint> {
    const { repository, clock, logger } = this.deps;
    const endpoint = await repository.rollSecret(
      scope,
      { id: newId('whe'), secret: generateWebhookSecret() },
      clock.now(),
    );
    logger.info(
      { endpoint_id: endpoint.id, merchant_id: scope.merchantId, livemode: scope.livemode },
      'webhook secret rolled',
    );
    return endpoint;
  }
}
