import type { PublicEvent } from '@sika/public-api';

import type { Events, Scope } from './ports';

/** The event exactly as its webhooks carried it; another merchant's or mode's is the same 404 as none. */
export class RetrieveEvent {
  constructor(private readonly deps: { events: Events }) {}

  execute(scope: Scope, eventId: string): Promise<PublicEvent> {
    return this.deps.events.retrieve(scope, eventId);
  }
}
