import type { Scope } from '@sika/platform/pure';

import type { Peers, WebhookEvent } from './ports';

export interface WebhooksView {
  url: string | undefined;
  events: WebhookEvent[];
  hasMore: boolean;
}

/** The endpoint's URL (never its secret: that is revealed on request) and a page of the delivery log. */
export class ShowWebhooks {
  constructor(private readonly dependencies: { peers: Pick<Peers, 'webhooks'> }) {}

  async execute(scope: Scope, page: { limit: number; startingAfter?: string }): Promise<WebhooksView> {
    const { webhooks } = this.dependencies.peers;
    const [url, events] = await Promise.all([webhooks.url(scope), webhooks.events(scope, page)]);
    return { url, events: events.items, hasMore: events.hasMore };
  }
}
