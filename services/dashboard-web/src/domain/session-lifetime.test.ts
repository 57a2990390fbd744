import { expiryWorthExtending, sessionExpiry } from './session-lifetime';

const HOUR = 3_600_000;
const lifetime = { idleMs: 12 * HOUR, absoluteMs: 7 * 24 * HOUR };
const signedIn = new Date('2026-11-25T08:00:00Z');

describe('session lifetime', () => {
  it('lasts the idle timeout after each use', () => {
    const used = new Date(signedIn.getTime() + 3 * HOUR);
    expect(sessionExpiry(signedIn, used, lifetime)).toEqual(new Date(used.getTime() + 12 * HOUR));
  });

  it('never outlives the absolute lifetime, however often it is used', () => {
    const lastDay = new Date(signedIn.getTime() + 6.9 * 24 * HOUR);
    expect(sessionExpiry(signedIn, lastDay, lifetime)).toEqual(new Date(signedIn.getTime() + 7 * 24 * HOUR));
  });

  it('writes a new expiry only once it moved by a minute or more', () => {
    const stored = new Date('2026-11-25T20:00:00Z');
    expect(expiryWorthExtending(stored, new Date(stored.getTime() + 59_999))).toBe(false);
    expect(expiryWorthExtending(stored, new Date(stored.getTime() + 60_000))).toBe(true);
    expect(expiryWorthExtending(stored, new Date(stored.getTime() - 1))).toBe(false);
  });
});
