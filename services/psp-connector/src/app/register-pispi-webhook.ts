import type { WebhookCreationRequest, WebhookData } from '@sika/pispi';
import type { Clock, Logger } from '@sika/platform';

import type { Mode } from '../domain/mode';
import { HANDLED_EVENT_CODES } from '../domain/pispi-transformers';
import type { Participant, PispiWebhookAccess, PispiWebhookStore } from './ports';

/** Where a mode's callbacks arrive: `<public base URL>/pispi/callbacks/<mode>`. */
export function callbackUrlFor(publicBaseUrl: string, mode: Mode): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/pispi/callbacks/${mode}`;
}

/**
 * Registers the mode's callback URL with its participant (POST /webhooks), idempotently: a registration
 * this service made and the participant still has, with the same URL, alias and events, is kept; anything
 * else is replaced (the old one deleted first, so callbacks are not sent twice). The secret, given only in
 * the registration answer, is stored: it verifies every callback's X-Signature.
 */
export class RegisterPispiWebhook {
  constructor(
    private readonly deps: {
      webhooks: PispiWebhookStore;
      publicBaseUrl: string;
      clock: Clock;
      logger: Logger;
    },
  ) {}

  execute(mode: Mode, scheme: Participant): Promise<'kept' | 'registered'> {
    const wanted: Required<WebhookCreationRequest> = {
      callbackUrl: callbackUrlFor(this.deps.publicBaseUrl, mode),
      alias: scheme.payeeAlias,
      events: [...HANDLED_EVENT_CODES],
    };
    return this.deps.webhooks.withRegistrationLock(mode, async (stored) => {
      const current = await stored.find(mode);
      if (current && current.callbackUrl === wanted.callbackUrl) {
        const remote = await scheme.client.getWebhook(current.webhookId);
        if (remote && sameRegistration(remote, wanted)) {
          this.deps.logger.info(
            { mode, webhook_id: current.webhookId },
            'scheme callback URL already registered',
          );
          return 'kept';
        }
      }
      if (current) await scheme.client.deleteWebhook(current.webhookId);
      return this.register(mode, scheme, wanted, stored);
    });
  }

  private async register(
    mode: Mode,
    scheme: Participant,
    wanted: Required<WebhookCreationRequest>,
    stored: PispiWebhookAccess,
  ): Promise<'registered'> {
    const created = await scheme.client.createWebhook(wanted);
    await stored.save({
      mode,
      webhookId: created.id,
      callbackUrl: wanted.callbackUrl,
      secret: created.secret,
      registeredAt: this.deps.clock.now(),
    });
    this.deps.logger.info(
      { mode, webhook_id: created.id, callback_url: wanted.callbackUrl },
      'scheme callback URL registered',
    );
    return 'registered';
  }
}

function sameRegistration(remote: WebhookData, wanted: Required<WebhookCreationRequest>): boolean {
  const events = [...(remote.events ?? [])].sort().join();
  return (
    remote.callbackUrl === wanted.callbackUrl &&
    remote.alias === wanted.alias &&
    events === [...wanted.events].sort().join()
  );
}
