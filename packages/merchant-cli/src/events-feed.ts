import type { Sika } from '@sika/node';

import type { EventFeed } from './commands/listen';

/**
 * The account's events through the SDK's `events.list` (`GET /v1/events`: most recent first, `created_from`
 * inclusive, `limit`, `starting_after`), one page per call; listen walks the pages itself.
 */
export function eventsFeed(sika: Sika): EventFeed {
  return async ({ createdFrom, startingAfter, limit }) => {
    const page = await sika.events.list({
      limit,
      ...(createdFrom !== undefined && { created_from: createdFrom }),
      ...(startingAfter !== undefined && { starting_after: startingAfter }),
    });
    return { data: page.data, has_more: page.has_more };
  };
}
