import { AppError } from '@sika/platform';

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** Spec §4: `limit` is 1 to 100, default 20. Protobuf cannot tell "absent" from 0, so 0 means the default. */
export function pageLimit(requested: number): number {
  if (requested === 0) return DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(requested) || requested < 1 || requested > MAX_PAGE_LIMIT) {
    throw new AppError('parameter_invalid', `limit must be an integer between 1 and ${MAX_PAGE_LIMIT}.`, {
      param: 'limit',
    });
  }
  return requested;
}
