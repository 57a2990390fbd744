import { AppError, newId } from '@sika/platform/pure';

import { checkPayoutFormKey, parsePayoutAmount } from './payout-request';

const paramOf = (act: () => unknown): string | undefined => {
  try {
    act();
  } catch (error) {
    if (error instanceof AppError) return error.param;
  }
  return undefined;
};

describe('"Pay out now"', () => {
  it('reads everything as no amount, and francs as merchants write them', () => {
    expect(parsePayoutAmount('all', 'ignored')).toBeUndefined();
    expect(parsePayoutAmount('amount', '2500')).toBe(2_500);
    expect(parsePayoutAmount('amount', ' 2 500 ')).toBe(2_500);
    expect(parsePayoutAmount('amount', '1\u202f000\u00a0000')).toBe(1_000_000);
  });

  it.each(['', '0', '-5', '2,5', '2.500', '12e3', '99999999999999999', 'cinq'])(
    'refuses %p as an amount, naming `amount`',
    (typed) => {
      expect(paramOf(() => parsePayoutAmount('amount', typed))).toBe('amount');
    },
  );

  it('refuses a choice that is neither', () => {
    expect(paramOf(() => parsePayoutAmount('some', '5'))).toBe('amount');
  });

  it('takes the form key the page drew, and nothing else', () => {
    const key = newId('dpf');
    expect(checkPayoutFormKey(key)).toBe(key);
    expect(paramOf(() => checkPayoutFormKey(''))).toBe('idempotency_key');
    expect(paramOf(() => checkPayoutFormKey(newId('po')))).toBe('idempotency_key');
  });
});
