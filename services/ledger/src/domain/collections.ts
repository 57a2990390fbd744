import { AppError } from '@sika/platform/pure';

/** Sika's merchants are in the UEMOA: their days are Abidjan's, UTC+0 all year (no daylight saving). */
export const COLLECTION_TIME_ZONE = 'Africa/Abidjan';

/** Any calendar quarter fits (the longest has 92 days); the bound keeps the scan and the answer small. */
export const MAX_RANGE_DAYS = 92;

const DAY_MS = 86_400_000;

/** A half-open range of instants: `from` inclusive, `to` exclusive. */
export interface CollectionRange {
  from: Date;
  to: Date;
}

/** What was collected on one day: sums of that day's movements, the fees as a positive number. */
export interface DailyCollection {
  /** YYYY-MM-DD in COLLECTION_TIME_ZONE. */
  day: string;
  collected: bigint;
  fees: bigint;
  paymentCount: bigint;
}

export function validateCollectionRange(range: { from?: Date; to?: Date }): CollectionRange {
  const { from, to } = range;
  if (from === undefined) {
    throw new AppError('parameter_invalid', 'from is required.', { param: 'from' });
  }
  if (to === undefined) {
    throw new AppError('parameter_invalid', 'to is required.', { param: 'to' });
  }
  if (to.getTime() <= from.getTime()) {
    throw new AppError('parameter_invalid', 'to must be after from.', { param: 'to' });
  }
  if (to.getTime() - from.getTime() > MAX_RANGE_DAYS * DAY_MS) {
    throw new AppError('parameter_invalid', `to must be at most ${MAX_RANGE_DAYS} days after from.`, {
      param: 'to',
    });
  }
  return { from, to };
}
