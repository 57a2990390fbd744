import { signInVerdict } from './sign-in-limits';

const WINDOW = 15 * 60_000;
const limits = { perAccount: { limit: 5, windowMs: WINDOW }, perAddress: { limit: 20, windowMs: WINDOW } };
/** Ten minutes into a window: five minutes (300 s) until it resets. */
const now = 1_000 * WINDOW + 10 * 60_000;

describe('sign-in limits', () => {
  it('lets attempts through below both limits', () => {
    expect(signInVerdict({ account: 0, address: 0 }, limits, now)).toMatchObject({ allowed: true });
    expect(signInVerdict({ account: 4, address: 19 }, limits, now)).toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });

  it('refuses once an account had its failures, from any address, until the window ends', () => {
    expect(signInVerdict({ account: 5, address: 5 }, limits, now)).toEqual({
      allowed: false,
      limit: 5,
      remaining: 0,
      resetSeconds: 300,
    });
  });

  it('refuses an address that failed on many accounts, though each account is below its own limit', () => {
    expect(signInVerdict({ account: 1, address: 20 }, limits, now)).toMatchObject({
      allowed: false,
      limit: 20,
    });
  });

  it('waits for the longer of the two windows when both are exhausted', () => {
    const longer = { ...limits, perAddress: { limit: 20, windowMs: 4 * WINDOW } };
    const verdict = signInVerdict({ account: 9, address: 30 }, longer, now);
    expect(verdict.allowed).toBe(false);
    expect(verdict.resetSeconds).toBeGreaterThan(300);
  });
});
