const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Spec §6 rule 2: after a failed attempt, the next one comes after 1 min, 5 min, 30 min, 2 h, then 12 h. */
export const RETRY_DELAYS_MS = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 12 * HOUR] as const;

/** The first attempt and one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** Where a delivery stands after an attempt. */
export type DeliveryOutcome =
  | { status: 'delivered'; deliveredAt: Date }
  | { status: 'pending'; nextAttemptAt: Date }
  | { status: 'failed' };

export type DeliveryStatus = DeliveryOutcome['status'];

/** Spec §6 rule 2: only a 2xx answer counts as delivered (a redirect is not followed, so it fails). */
export function isDeliveredStatus(statusCode: number | undefined): boolean {
  return statusCode !== undefined && statusCode >= 200 && statusCode <= 299;
}

/**
 * After attempt number `attemptNumber` (1-based) finished at `finishedAt`: delivered on a 2xx, otherwise
 * scheduled again after the delay of the schedule, or failed for good once the last retry failed.
 */
export function outcomeOfAttempt(
  attemptNumber: number,
  statusCode: number | undefined,
  finishedAt: Date,
): DeliveryOutcome {
  if (isDeliveredStatus(statusCode)) return { status: 'delivered', deliveredAt: finishedAt };
  const delay = RETRY_DELAYS_MS[attemptNumber - 1];
  if (delay === undefined) return { status: 'failed' };
  return { status: 'pending', nextAttemptAt: new Date(finishedAt.getTime() + delay) };
}
