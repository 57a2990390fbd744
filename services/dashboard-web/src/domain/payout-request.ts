import { AppError, isId } from '@sika/platform/pure';

/** Spaces a merchant may type between thousands: ordinary, no-break and narrow no-break. */
const THOUSANDS_SEPARATORS = /[\s\u00a0\u202f]/g;

/**
 * "Pay out now": `all` is the whole available balance (undefined), `amount` the francs typed, written as a
 * merchant writes them (`2 500` or `2500`). XOF has no minor unit, so anything but whole francs is refused
 * rather than rounded.
 */
export function parsePayoutAmount(choice: string, typed: string): number | undefined {
  if (choice === 'all') return undefined;
  if (choice !== 'amount') {
    throw new AppError('parameter_invalid', 'Choose the whole balance or an amount.', { param: 'amount' });
  }
  const digits = typed.replace(THOUSANDS_SEPARATORS, '');
  const amount = /^[0-9]{1,16}$/.test(digits) ? Number(digits) : Number.NaN;
  if (!Number.isSafeInteger(amount) || amount < 1) {
    throw new AppError('parameter_invalid', 'The amount must be a whole number of francs, at least 1.', {
      param: 'amount',
    });
  }
  return amount;
}

/**
 * The idempotency key a "Pay out now" form carries from the page that drew it (`newId('dpf')`): a form sent
 * twice (a double click, a reload after a timeout) pays once.
 */
export function checkPayoutFormKey(key: string): string {
  if (!isId('dpf', key)) {
    throw new AppError('parameter_invalid', 'The form has expired: reload the page and try again.', {
      param: 'idempotency_key',
    });
  }
  return key;
}
