import { defaultExpiresAt, expiryProblem, isPastDeadline } from './expiry';

const now = new Date('2026-05-01T10:00:00Z');
const after = (ms: number) => new Date(now.getTime() + ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('expiryProblem', () => {
  it.each([
    ['immediate without expires_at', 'immediate', undefined],
    ['immediate in 1 minute', 'immediate', after(MINUTE)],
    ['immediate in 24 hours', 'immediate', after(DAY)],
    ['on_delivery in 30 days', 'on_delivery', after(30 * DAY)],
    ['on_delivery in 24 hours', 'on_delivery', after(DAY)],
  ] as const)('accepts %s', (_name, mode, requested) => {
    expect(expiryProblem(mode, requested, now)).toBeUndefined();
  });

  it.each([
    ['immediate in 59 seconds', 'immediate', after(59_000), 'parameter_invalid'],
    ['immediate past 24 hours', 'immediate', after(DAY + 1), 'parameter_invalid'],
    ['on_delivery without expires_at', 'on_delivery', undefined, 'parameter_missing'],
    ['on_delivery now', 'on_delivery', now, 'parameter_invalid'],
    [
      'on_delivery in less than 24 hours (PI-SPI cannot schedule it)',
      'on_delivery',
      after(DAY - 1),
      'parameter_invalid',
    ],
    ['on_delivery past 30 days', 'on_delivery', after(30 * DAY + 1), 'parameter_invalid'],
  ] as const)('refuses %s', (_name, mode, requested, code) => {
    expect(expiryProblem(mode, requested, now)?.code).toBe(code);
  });

  it('widens the bounds by a tolerance, for a second check on another clock', () => {
    expect(expiryProblem('immediate', after(59_000), now, 30_000)).toBeUndefined();
    expect(expiryProblem('immediate', after(DAY + 29_000), now, 30_000)).toBeUndefined();
    expect(expiryProblem('on_delivery', after(30 * DAY + 29_000), now, 30_000)).toBeUndefined();
    expect(expiryProblem('on_delivery', after(DAY - 29_000), now, 30_000)).toBeUndefined();
    expect(expiryProblem('on_delivery', now, now, 30_000)?.code).toBe('parameter_invalid');
  });
});

describe('deadlines', () => {
  it('gives an immediate payment 5 minutes by default', () => {
    expect(defaultExpiresAt(now)).toEqual(after(5 * MINUTE));
  });

  it('is past its deadline from expires_at on', () => {
    expect(isPastDeadline(now, after(-1))).toBe(false);
    expect(isPastDeadline(now, now)).toBe(true);
  });
});
