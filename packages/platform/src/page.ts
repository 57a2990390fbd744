import { AppError } from './errors';

/** Spec §4: every list takes a `limit` from 1 to 100, 20 when not given. */
export const PAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;

/**
 * The page size of a gRPC list request. proto3 cannot tell an unset int32 from 0, so 0 means "not given"
 * and takes the default; anything else outside 1..100 is refused on `limit`.
 */
export function pageLimit(requested: number): number {
  if (requested === 0) return PAGE_LIMIT.default;
  if (!Number.isInteger(requested) || requested < PAGE_LIMIT.min || requested > PAGE_LIMIT.max) {
    throw new AppError(
      'parameter_invalid',
      `limit must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}.`,
      { param: 'limit' },
    );
  }
  return requested;
}
