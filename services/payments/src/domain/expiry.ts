import { AppError } from '@sika/platform/pure';
import { defaultExpiresAt, expiryProblem } from '@sika/rules';
import type { PaymentMode } from './payment';

/**
 * The gateway checked the bounds against its own clock a moment earlier; this much slack keeps a request it
 * accepted at the edge of a bound (and small clock differences between hosts) from failing here.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 30_000;

/**
 * The payment's deadline: the default for immediate payments, else the requested one within its bounds.
 * `checkedByGateway` is false for a creation with an Idempotency-Key: the gateway leaves the bounds to this
 * check, made after the replay lookup, so it is the only one and allows no slack.
 */
export function resolveExpiresAt(
  mode: PaymentMode,
  requested: Date | undefined,
  now: Date,
  checkedByGateway: boolean,
): Date {
  const tolerance = checkedByGateway ? CLOCK_SKEW_TOLERANCE_MS : 0;
  const problem = expiryProblem(mode, requested, now, tolerance);
  if (problem !== undefined) throw new AppError(problem.code, problem.message, { param: 'expires_at' });
  return requested ?? defaultExpiresAt(now);
}
