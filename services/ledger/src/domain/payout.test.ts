import { merchantAccount, systemAccount } from './accounts';
import { planPayoutRelease, planPayoutReservation } from './payout';

describe('payout reservation', () => {
  it('reserves the amount asked for, or the whole available balance', () => {
    expect(planPayoutReservation(1_000n, 400n)).toEqual({
      amount: 400n,
      postings: [
        { account: merchantAccount('available'), amount: -400n },
        { account: merchantAccount('pending_payout'), amount: 400n },
      ],
    });
    expect(planPayoutReservation(1_000n, undefined).amount).toBe(1_000n);
    expect(planPayoutReservation(1_000n, 1_000n).amount).toBe(1_000n);
  });

  it('refuses more than available and an empty balance with balance_insufficient', () => {
    expect(() => planPayoutReservation(999n, 1_000n)).toThrow(
      expect.objectContaining({ code: 'balance_insufficient', param: 'amount' }),
    );
    expect(() => planPayoutReservation(0n, undefined)).toThrow(
      expect.objectContaining({ code: 'balance_insufficient' }),
    );
  });
});

describe('payout release', () => {
  it('sends a paid payout to the scheme and returns a failed one to the available balance', () => {
    expect(planPayoutRelease('paid', 70n)).toEqual([
      { account: merchantAccount('pending_payout'), amount: -70n },
      { account: systemAccount('scheme_settlement'), amount: 70n },
    ]);
    expect(planPayoutRelease('failed', 70n)).toEqual([
      { account: merchantAccount('pending_payout'), amount: -70n },
      { account: merchantAccount('available'), amount: 70n },
    ]);
  });
});
