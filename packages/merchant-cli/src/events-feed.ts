import type { EventFeed, FeedEvent } from './commands/listen';
import type { CliConfig } from './config';

/**
 * The account's events from `GET /v1/events` (most recent first; `created_from` inclusive, `limit`,
 * `starting_after`), read with the secret key. Written against the events API's documented shape, which is
 * not yet in the OpenAPI document the SDK is generated from; once it is, the SDK's `events.list` replaces
 * this (the SDK's build asks for it).
 */
export function eventsFeed(config: CliConfig): EventFeed {
  return async ({ createdFrom, startingAfter, limit }) => {
    const url = new URL(`${config.apiBase.replace(/\/+$/, '')}/v1/events`);
    url.searchParams.set('limit', String(limit));
    if (createdFrom !== undefined) url.searchParams.set('created_from', createdFrom);
    if (startingAfter !== undefined) url.searchParams.set('starting_after', startingAfter);
    const response = await fetch(url, {
      headers: { Authorization: `Bearer ${config.secretKey}`, Accept: 'application/json' },
      signal: AbortSignal.timeout(30_000),
    }).catch((error: unknown) => {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      throw new Error(`Could not reach ${config.apiBase}: ${cause?.code ?? cause?.message ?? String(error)}`);
    });
    const body = (await response.json().catch(() => undefined)) as
      { data: FeedEvent[]; has_more: boolean; error?: { code: string; message: string } } | undefined;
    if (!response.ok || body === undefined) {
      throw new Error(
        body?.error === undefined
          ? `GET /v1/events answered ${response.status}`
          : `GET /v1/events: ${body.error.code}: ${body.error.message}`,
      );
    }
    return { data: body.data, has_more: body.has_more };
  };
}
