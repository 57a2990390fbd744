import { AppError } from '@sika/platform/pure';
import { EXPIRY_BOUNDS, isPastDeadline } from '@sika/rules';
import { CLOCK_SKEW_TOLERANCE_MS, resolveExpiresAt } from './expiry';

const IMMEDIATE_DEFAULT_VALIDITY_MS = EXPIRY_BOUNDS.immediateDefaultMs;

const NOW = new Date('2026-01-10T12:00:00.000Z');
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);

function errorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('resolveExpiresAt', () => {
  it('defaults an immediate payment to 5 minutes', () => {
    expect(resolveExpiresAt('immediate', undefined, NOW, true)).toEqual(at(IMMEDIATE_DEFAULT_VALIDITY_MS));
    expect(IMMEDIATE_DEFAULT_VALIDITY_MS).toBe(5 * MINUTE);
  });

  it.each([at(MINUTE), at(10 * MINUTE), at(24 * 60 * MINUTE)])(
    'keeps an immediate deadline within 1 min..24 h: %p',
    (requested) => {
      expect(resolveExpiresAt('immediate', requested, NOW, true)).toEqual(requested);
    },
  );

  it('tolerates a little clock skew at the bounds the gateway already checked', () => {
    expect(resolveExpiresAt('immediate', at(MINUTE - CLOCK_SKEW_TOLERANCE_MS), NOW, true)).toBeDefined();
    expect(
      resolveExpiresAt('immediate', at(24 * 60 * MINUTE + CLOCK_SKEW_TOLERANCE_MS), NOW, true),
    ).toBeDefined();
  });

  it('allows no slack when it is the only check (a creation with an Idempotency-Key)', () => {
    const error = errorOf(() => resolveExpiresAt('immediate', at(MINUTE - 1), NOW, false));
    expect([error.code, error.param]).toEqual(['parameter_invalid', 'expires_at']);
    expect(resolveExpiresAt('immediate', at(MINUTE), NOW, false)).toEqual(at(MINUTE));
  });

  it.each([
    at(-MINUTE),
    at(MINUTE - CLOCK_SKEW_TOLERANCE_MS - 1),
    at(24 * 60 * MINUTE + CLOCK_SKEW_TOLERANCE_MS + 1),
  ])('rejects an immediate deadline out of bounds: %p', (requested) => {
    const error = errorOf(() => resolveExpiresAt('immediate', requested, NOW, true));
    expect([error.code, error.param]).toEqual(['parameter_invalid', 'expires_at']);
  });

  it('requires expires_at for on_delivery payments', () => {
    const error = errorOf(() => resolveExpiresAt('on_delivery', undefined, NOW, true));
    expect([error.code, error.param]).toEqual(['parameter_missing', 'expires_at']);
  });

  it('keeps an on_delivery deadline from 24 hours to 30 days ahead', () => {
    const thirtyDays = at(30 * 24 * 60 * MINUTE);
    expect(resolveExpiresAt('on_delivery', thirtyDays, NOW, true)).toEqual(thirtyDays);
    expect(resolveExpiresAt('on_delivery', at(24 * 60 * MINUTE), NOW, true)).toEqual(at(24 * 60 * MINUTE));
  });

  it.each([
    at(0),
    at(-1),
    at(24 * 60 * MINUTE - CLOCK_SKEW_TOLERANCE_MS - 1),
    at(30 * 24 * 60 * MINUTE + CLOCK_SKEW_TOLERANCE_MS + 1),
  ])('rejects an on_delivery deadline less than 24 hours or more than 30 days ahead: %p', (requested) => {
    const error = errorOf(() => resolveExpiresAt('on_delivery', requested, NOW, true));
    expect([error.code, error.param]).toEqual(['parameter_invalid', 'expires_at']);
  });
});

describe('isPastDeadline', () => {
  it('is true from expires_at on', () => {
    expect(isPastDeadline(at(1), NOW)).toBe(false);
    expect(isPastDeadline(NOW, NOW)).toBe(true);
    expect(isPastDeadline(at(-1), NOW)).toBe(true);
  });
});
