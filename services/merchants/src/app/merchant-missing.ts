import { AppError } from '@sika/platform';

/** The answer of every operation on a merchant id that names no merchant. */
export function merchantMissing(merchantId: string): AppError {
  return new AppError('resource_missing', `No such merchant: '${merchantId}'`, { param: 'merchant_id' });
}
