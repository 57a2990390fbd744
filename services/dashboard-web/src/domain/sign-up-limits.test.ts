import { signUpRefusal } from './sign-up-limits';

const HOUR = 3_600_000;
const limits = { perAddress: { limit: 5, windowMs: HOUR }, global: { limit: 200, windowMs: HOUR } };
/** A quarter into an hour's window: 45 minutes until it resets. */
const now = 500 * HOUR + HOUR / 4;

describe('sign-up limits', () => {
  it('allows sign-ups up to both limits, this one counted', () => {
    expect(signUpRefusal({ address: 5, global: 200 }, limits, now)).toBeUndefined();
  });

  it('refuses an address past its limit, and everyone past the global one, until the window ends', () => {
    expect(signUpRefusal({ address: 6, global: 10 }, limits, now)).toEqual({ retryAfterSeconds: 2_700 });
    expect(signUpRefusal({ address: 1, global: 201 }, limits, now)).toEqual({ retryAfterSeconds: 2_700 });
  });
});
