import { AppError, newId, type Clock, type Logger } from '@sika/platform';
import { validateEndpointUrl } from '../domain/endpoint-url';
import type { Scope } from '@sika/platform/pure';
import { generateWebhookSecret } from '../domain/webhook-secret';
import type { Endpoint, EndpointRepository } from './ports';
import type { DeliverWaitingEvents } from './deliver-waiting-events';
import type { WebhookTargets } from './webhook-targets';

/**
 * Registers the URL of a merchant's endpoint for one mode, creating the endpoint and its secret the first
 * time (a live endpoint created without a URL takes the test endpoint's). Without a URL the endpoint exists
 * (its secret can be shown) but nothing is delivered; once it has one, the events stored meanwhile are sent.
 * Changing the URL keeps the secret.
 */
export class SetEndpoint {
  constructor(
    private readonly deps: {
      repository: EndpointRepository;
      targets: WebhookTargets;
      waiting: DeliverWaitingEvents;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  async execute(scope: Scope, url: string | undefined): Promise<Endpoint> {
    const { repository, clock, logger } = this.deps;
    const validUrl = url === undefined ? null : await this.deliverableUrl(url, scope.livemode);
    const endpoint = await repository.setUrl(
      scope,
      validUrl,
      { id: newId('whe'), secret: generateWebhookSecret() },
      clock.now(),
    );
    logger.info(
      {
        endpoint_id: endpoint.id,
        merchant_id: scope.merchantId,
        livemode: scope.livemode,
        has_url: validUrl !== null,
      },
      'webhook endpoint set',
    );
    await this.deps.waiting.execute(endpoint);
    return endpoint;
  }

  /**
   * The URL, if the target rules let deliveries go there. A host that does not resolve yet is accepted (its
   * DNS may be set up after the endpoint): every delivery vets the URL again before connecting.
   */
  private async deliverableUrl(url: string, livemode: boolean): Promise<string> {
    const valid = validateEndpointUrl(url);
    const target = await this.deps.targets.vet(valid, livemode);
    if ('refused' in target) {
      throw new AppError('parameter_invalid', `url ${target.refused}.`, { param: 'url' });
    }
    return valid;
  }
}
