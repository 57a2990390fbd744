import { signInVerdict } from './sign-in-limits';

const WINDOW = 15 * 60_000;
const limits = {
  perAccount: { limit: 5, windowMs: WINDOW },
  perAddress: { limit: 20, windowMs: WINDOW },
  accountSlowDownMs: 60_000,
};
/** Ten minutes into a window: five minutes (300 s) until it resets. */
const now = 1_000 * WINDOW + 10 * 60_000;

describe('sign-in limits', () => {
  it('lets attempts through up to both limits, this attempt counted', () => {
    expect(signInVerdict({ account: 1, address: 1 }, limits, now)).toEqual({ kind: 'allowed' });
    expect(signInVerdict({ account: 5, address: 20 }, limits, now)).toEqual({ kind: 'allowed' });
  });

  it('slows an account down past its limit rather than locking it', () => {
    expect(signInVerdict({ account: 6, address: 6 }, limits, now)).toEqual({ kind: 'slowed_down' });
  });

  it('refuses an address past its limit until the window ends, whatever the accounts', () => {
    expect(signInVerdict({ account: 1, address: 21 }, limits, now)).toEqual({
      kind: 'limited',
      retryAfterSeconds: 300,
    });
  });
});
