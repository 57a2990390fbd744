import { AppError, decide, windowAt, type RateLimitPolicy } from '@sika/platform';
import type { EventStore } from './ports';

/**
 * Counts a test event or a resend to the endpoint, in the transaction that schedules it, and refuses it
 * (rate_limited, the transaction rolled back so it counts nothing) past the policy: each one is an attempt to a
 * URL the merchant chose, and unthrottled they let one merchant fill the delivery slots every merchant shares.
 */
export async function countManualSend(
  store: EventStore,
  endpointId: string,
  now: Date,
  policy: RateLimitPolicy,
): Promise<void> {
  const position = windowAt(now.getTime(), policy.windowMs);
  const count = await store.countManualSend(endpointId, position.index);
  const decision = decide(count, policy, position);
  if (decision.allowed) return;
  throw new AppError(
    'rate_limited',
    `Too many test events and resends to this webhook endpoint: at most ${policy.limit} every ` +
      `${Math.round(policy.windowMs / 1000)} s. Retry after ${decision.resetSeconds} s.`,
  );
}
