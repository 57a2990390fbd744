import {
  INITIAL_BACKOFF_MS,
  isRetryable,
  MAX_BACKOFF_MS,
  retryAfterMs,
  retryDelayMs,
  type Outcome,
} from './retry';

const answer = (status: number, code?: string, retryAfter: string | null = null): Outcome => ({
  kind: 'answer',
  status,
  code,
  retryAfter,
});

describe('isRetryable', () => {
  it('retries lost connections, 429, 503 and a key still in use, when the request is safe to repeat', () => {
    expect(isRetryable({ kind: 'network' }, true)).toBe(true);
    expect(isRetryable(answer(429, 'rate_limited'), true)).toBe(true);
    expect(isRetryable(answer(503, 'service_unavailable'), true)).toBe(true);
    expect(isRetryable(answer(409, 'idempotency_key_in_use'), true)).toBe(true);
  });

  it('never retries an answer that would be the same again', () => {
    for (const [status, code] of [
      [400, 'parameter_invalid'],
      [401, 'api_key_invalid'],
      [404, 'resource_missing'],
      [409, 'idempotency_key_reused'],
      [409, 'payment_already_final'],
      [500, 'internal_error'],
    ] as const) {
      expect({ status, code, retried: isRetryable(answer(status, code), true) }).toEqual({
        status,
        code,
        retried: false,
      });
    }
  });

  it('retries a request that is not safe to repeat only after a 429, answered before anything ran', () => {
    expect(isRetryable(answer(429, 'rate_limited'), false)).toBe(true);
    expect(isRetryable({ kind: 'network' }, false)).toBe(false);
    expect(isRetryable(answer(503, 'service_unavailable'), false)).toBe(false);
  });
});

describe('retryDelayMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('waits what Retry-After asks, in seconds or as a date', () => {
    expect(retryDelayMs(1, answer(503, 'service_unavailable', '2'), now, 0.5)).toBe(2_000);
    expect(retryDelayMs(1, answer(429, 'rate_limited', 'Thu, 01 Jan 2026 00:00:03 GMT'), now, 0.5)).toBe(
      3_000,
    );
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });

  it('gives up rather than wait more than a minute', () => {
    expect(retryDelayMs(1, answer(503, 'service_unavailable', '61'), now, 0)).toBeUndefined();
  });

  it('backs off exponentially with jitter, up to a ceiling, without Retry-After', () => {
    expect(retryDelayMs(1, { kind: 'network' }, now, 0)).toBe(INITIAL_BACKOFF_MS);
    expect(retryDelayMs(2, { kind: 'network' }, now, 0)).toBe(2 * INITIAL_BACKOFF_MS);
    expect(retryDelayMs(2, { kind: 'network' }, now, 0.999)).toBeGreaterThanOrEqual(INITIAL_BACKOFF_MS);
    expect(retryDelayMs(10, { kind: 'network' }, now, 0)).toBe(MAX_BACKOFF_MS);
  });
});
