import { ManualClock, systemClock } from './clock';

describe('ManualClock', () => {
  it('stands still until set or advanced', () => {
    const clock = new ManualClock(new Date('2025-03-01T06:00:00.000Z'));

    expect(clock.now().toISOString()).toBe('2025-03-01T06:00:00.000Z');
    clock.advance(5 * 60_000);
    expect(clock.now().toISOString()).toBe('2025-03-01T06:05:00.000Z');
    clock.set(new Date('2025-03-02T00:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2025-03-02T00:00:00.000Z');
  });

  it('hands out copies, so callers cannot move it by mutating a date', () => {
    const clock = new ManualClock(new Date('2025-03-01T06:00:00.000Z'));

    clock.now().setFullYear(2000);

    expect(clock.now().getUTCFullYear()).toBe(2025);
  });
});

describe('systemClock', () => {
  it('reads the real time', () => {
    expect(Math.abs(systemClock.now().getTime() - Date.now())).toBeLessThan(1_000);
  });
});
