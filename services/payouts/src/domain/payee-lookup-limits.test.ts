import { lookupRefusal } from './payee-lookup-limits';

const HOUR = 3_600_000;
const limits = { perMerchant: { limit: 5, windowMs: 24 * HOUR }, global: { limit: 100, windowMs: HOUR } };
const now = new Date('2026-11-25T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('lookupRefusal', () => {
  it('allows a look-up below both limits', () => {
    const windows = {
      merchant: { count: 4, oldest: ago(HOUR) },
      global: { count: 99, oldest: ago(HOUR / 2) },
    };
    expect(lookupRefusal(windows, limits, now)).toBeUndefined();
  });

  it("refuses a merchant's sixth look-up of the day until its oldest leaves the window", () => {
    const windows = {
      merchant: { count: 5, oldest: ago(20 * HOUR) },
      global: { count: 5, oldest: ago(HOUR / 2) },
    };
    expect(lookupRefusal(windows, limits, now)).toEqual({ limit: 'merchant', retryAfterSeconds: 4 * 3600 });
  });

  it('refuses every merchant once all of them together reached the global limit', () => {
    const windows = {
      merchant: { count: 0, oldest: undefined },
      global: { count: 100, oldest: ago(HOUR - 60_000) },
    };
    expect(lookupRefusal(windows, limits, now)).toEqual({ limit: 'global', retryAfterSeconds: 60 });
  });
});
