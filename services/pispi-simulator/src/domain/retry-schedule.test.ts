import { CALLBACK_RETRY_DELAYS_MS, nextAttemptDelayMs } from './retry-schedule';

describe('callback retry schedule', () => {
  it('retries half a second after the first failure, then spaces out', () => {
    expect(nextAttemptDelayMs(1)).toBe(500);
    expect(nextAttemptDelayMs(2)).toBe(1_000);
    expect(nextAttemptDelayMs(CALLBACK_RETRY_DELAYS_MS.length)).toBe(3_600_000);
  });

  it('gives up after the last delay', () => {
    expect(nextAttemptDelayMs(CALLBACK_RETRY_DELAYS_MS.length + 1)).toBeUndefined();
  });
});
