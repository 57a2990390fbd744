import { AppError } from '@sika/platform';
import type { Scope } from '@sika/platform/pure';
import type { EventStore } from './ports';

/**
 * The scope's endpoint, read in the transaction about to schedule a delivery to it; parameter_invalid on
 * `url` when it has none, since a delivery would have nowhere to go.
 */
export async function deliverableEndpoint(store: EventStore, scope: Scope): Promise<{ id: string }> {
  const endpoint = await store.findDeliverableEndpoint(scope);
  if (endpoint === undefined) {
    throw new AppError(
      'parameter_invalid',
      'The webhook endpoint of this mode has no URL: set its url before sending events to it.',
      { param: 'url' },
    );
  }
  return endpoint;
}
