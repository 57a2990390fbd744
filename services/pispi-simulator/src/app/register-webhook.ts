import { randomBytes, randomUUID } from 'node:crypto';
import { WebhookCreationRequest, invalidParamsOf, type WebhookCreationResponse } from '@sika/pispi';
import type { Clock } from '@sika/platform';

import type { WebhookRepository } from './ports';
import { invalidParams } from '../domain/problem';

/** `POST /webhooks`: registers a callback URL and answers its HMAC secret, this once. */
export class RegisterWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
  ) {}

  async execute(clientId: string, body: unknown): Promise<WebhookCreationResponse> {
    const parsed = WebhookCreationRequest.safeParse(body);
    if (!parsed.success) throw invalidParams(invalidParamsOf(parsed.error));
    const { callbackUrl, alias, events } = parsed.data;
    const webhook = {
      id: randomUUID(),
      clientId,
      callbackUrl,
      alias: alias ?? null,
      events: events ?? [],
      // The document's example secret looks like `xsk_` and 32 characters; 24 random bytes in base64url.
      secret: `xsk_${randomBytes(24).toString('base64url')}`,
      createdAt: this.clock.now(),
    };
    await this.webhooks.insert(webhook);
    return {
      id: webhook.id,
      callbackUrl,
      ...(alias === undefined ? {} : { alias }),
      ...(events === undefined ? {} : { events }),
      dateCreation: webhook.createdAt.toISOString(),
      secret: webhook.secret,
    };
  }
}
