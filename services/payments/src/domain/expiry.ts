import { AppError } from '@sika/platform/pure';
import { defaultExpiresAt, expiryProblem } from '@sika/rules';
import type { PaymentMode } from './payment';

/**
 * The gateway checked the bounds against its own clock a moment earlier; this much slack keeps a request it
 * accepted at the edge of a bound (and small clock differences between hosts) from failing here.
 */
export const CLOCK_SKEW_TOLERANCE_MS = 30_000;

/** The payment's deadline: the default for immediate payments, else the requested one within its bounds. */
export function resolveExpiresAt(mode: PaymentMode, requested: Date | undefined, now: Date): Date {
  const problem = expiryProblem(mode, requested, now, CLOCK_SKEW_TOLERANCE_MS);
  if (problem !== undefined) throw new AppError(problem.code, problem.message, { param: 'expires_at' });
  return requested ?? defaultExpiresAt(now);
}
