import { AppError, isId } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import type { EventReader, EventView } from './ports';

/**
 * The scope's event `eventId`, or resource_missing on `param`. An id of another merchant or mode answers
 * exactly like one that does not exist, and an id that is not an event id is not even looked up.
 */
export async function eventInScope(
  reader: EventReader,
  scope: Scope,
  eventId: string,
  param: string,
): Promise<EventView> {
  const event = isId('evt', eventId) ? await reader.find(scope, eventId) : undefined;
  if (event === undefined) throw new AppError('resource_missing', 'No such event.', { param });
  return event;
}

export class GetEvent {
  constructor(private readonly deps: { reader: EventReader }) {}

  execute(scope: Scope, eventId: string): Promise<EventView> {
    return eventInScope(this.deps.reader, scope, eventId, 'event_id');
  }
}
