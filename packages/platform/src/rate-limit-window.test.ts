import { decide, windowAt } from './rate-limit-window';

describe('fixed rate-limit windows', () => {
  it('places an instant in its window and says how long the window still runs', () => {
    expect(windowAt(10_250, 1_000)).toEqual({ index: 10, remainingMs: 750 });
    expect(windowAt(10_000, 1_000)).toEqual({ index: 10, remainingMs: 1_000 });
  });

  it('allows up to the limit, then refuses, with the headers values', () => {
    const policy = { limit: 2, windowMs: 1_000 };
    const position = windowAt(10_250, 1_000);
    expect(decide(1, policy, position)).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 1 });
    expect(decide(2, policy, position)).toEqual({ allowed: true, limit: 2, remaining: 0, resetSeconds: 1 });
    expect(decide(3, policy, position)).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 1 });
  });

  it('rounds the reset up to whole seconds', () => {
    expect(decide(1, { limit: 5, windowMs: 60_000 }, windowAt(1_500, 60_000)).resetSeconds).toBe(59);
  });
});
