import { WebhooksEvents, type WebhookData } from '@sika/pispi';

import type { WebhookRepository } from './ports';
import { notFound } from '../domain/problem';

/** `GET /webhooks/{id}`: a webhook of the calling client, without its secret. */
export class GetWebhook {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(clientId: string, id: string): Promise<WebhookData> {
    const webhook = await this.webhooks.find(clientId, id);
    if (!webhook) throw notFound();
    return {
      id: webhook.id,
      dateCreation: webhook.createdAt.toISOString(),
      callbackUrl: webhook.callbackUrl,
      ...(webhook.alias === null ? {} : { alias: webhook.alias }),
      ...(webhook.events.length === 0 ? {} : { events: WebhooksEvents.array().parse(webhook.events) }),
    };
  }
}
