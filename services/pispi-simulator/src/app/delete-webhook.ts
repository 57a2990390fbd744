import type { Clock } from '@sika/platform';

import type { WebhookRepository } from './ports';
import { notFound } from '../domain/problem';

/** `DELETE /webhooks/{id}`: stops the callbacks (those already queued for it are dropped too). */
export class DeleteWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
  ) {}

  async execute(clientId: string, id: string): Promise<void> {
    if (!(await this.webhooks.delete(clientId, id, this.clock.now()))) throw notFound();
  }
}
