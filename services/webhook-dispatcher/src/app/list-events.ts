import { pageLimit } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import { eventInScope } from './get-event';
import type { EventFilter, EventReader, EventView } from './ports';

/**
 * The scope's events, most recent first, kept by `filter`; `startingAfter` must name an event of the same
 * scope (whether or not the filter keeps it).
 */
export class ListEvents {
  constructor(private readonly deps: { reader: EventReader }) {}

  async execute(
    scope: Scope,
    page: { limit: number; startingAfter: string | undefined },
    filter: EventFilter,
  ): Promise<{ events: EventView[]; hasMore: boolean }> {
    const { reader } = this.deps;
    const limit = pageLimit(page.limit);
    const after =
      page.startingAfter === undefined
        ? null
        : await eventInScope(reader, scope, page.startingAfter, 'starting_after');
    return reader.list(scope, { limit, after }, filter);
  }
}
