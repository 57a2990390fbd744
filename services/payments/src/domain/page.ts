import { AppError } from '@sika/platform';

/** Spec §4.2: `limit` 1 to 100, default 20. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** proto3 cannot tell an unset int32 from 0: 0 means "not given", hence the default. */
export function resolvePageSize(limit: number): number {
  if (limit === 0) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new AppError('parameter_invalid', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}.`, {
      param: 'limit',
    });
  }
  return limit;
}
