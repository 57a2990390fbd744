import { expiryProblem } from './expiry';

const now = new Date('2026-03-01T12:00:00Z');
const after = (ms: number) => new Date(now.getTime() + ms);
const MINUTE = 60_000;
const DAY = 1_440 * MINUTE;

describe('expires_at bounds (spec §8)', () => {
  it.each([
    ['immediate', undefined, undefined],
    ['immediate', after(MINUTE), undefined],
    ['immediate', after(DAY), undefined],
    ['immediate', after(MINUTE - 1), 'parameter_invalid'],
    ['immediate', after(DAY + 1), 'parameter_invalid'],
    ['on_delivery', undefined, 'parameter_missing'],
    ['on_delivery', after(1), undefined],
    ['on_delivery', after(30 * DAY), undefined],
    ['on_delivery', after(0), 'parameter_invalid'],
    ['on_delivery', after(30 * DAY + 1), 'parameter_invalid'],
  ] as const)('%s, %p → %p', (mode, expiresAt, code) => {
    expect(expiryProblem(mode, expiresAt, now)?.code).toBe(code);
  });
});
