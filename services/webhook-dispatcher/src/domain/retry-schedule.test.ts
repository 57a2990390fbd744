import { MAX_ATTEMPTS, outcomeOfAttempt, RETRY_DELAYS_MS } from './retry-schedule';

const FINISHED = new Date('2026-01-01T00:00:00.000Z');
const later = (milliseconds: number) => new Date(FINISHED.getTime() + milliseconds);

describe('the retry schedule', () => {
  it('is 1 min, 5 min, 30 min, 2 h, 12 h: six attempts in all', () => {
    expect(RETRY_DELAYS_MS).toEqual([60_000, 300_000, 1_800_000, 7_200_000, 43_200_000]);
    expect(MAX_ATTEMPTS).toBe(6);
  });

  it.each([
    [1, later(60_000)],
    [2, later(5 * 60_000)],
    [3, later(30 * 60_000)],
    [4, later(2 * 3_600_000)],
    [5, later(12 * 3_600_000)],
  ])('schedules the attempt after failed attempt %i at %s', (attempt, at) => {
    expect(outcomeOfAttempt(attempt, 500, FINISHED)).toEqual({ status: 'pending', nextAttemptAt: at });
  });

  it('gives up after the sixth attempt fails', () => {
    expect(outcomeOfAttempt(6, 503, FINISHED)).toEqual({ status: 'failed' });
  });

  it('counts any 2xx as delivered, even on the last attempt', () => {
    for (const status of [200, 201, 204, 299]) {
      expect(outcomeOfAttempt(6, status, FINISHED)).toEqual({ status: 'delivered', deliveredAt: FINISHED });
    }
  });

  it('counts redirects, client and server errors and no answer at all as failures', () => {
    for (const status of [undefined, 100, 301, 304, 400, 404, 410, 500]) {
      expect(outcomeOfAttempt(1, status, FINISHED)).toEqual({
        status: 'pending',
        nextAttemptAt: later(60_000),
      });
    }
  });
});
