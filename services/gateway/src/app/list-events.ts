import type { PublicEvent } from '@sika/public-api';

import type { ListEventsQuery } from '../domain/list-queries';
import type { Events, PublicList, Scope } from './ports';

/** Most recent first, as every list; filters exact (type, object_id) or half-open (created_from/to). */
export class ListEvents {
  constructor(private readonly deps: { events: Events }) {}

  execute(scope: Scope, query: ListEventsQuery): Promise<PublicList<PublicEvent>> {
    return this.deps.events.list(scope, query);
  }
}
