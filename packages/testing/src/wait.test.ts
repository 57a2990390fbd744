import { waitFor } from './wait';

describe('waitFor', () => {
  it('returns the first value that is not undefined, null or false', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : undefined), { intervalMs: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it('treats a throwing check as not ready and quotes its last error on timeout', async () => {
    const failing = waitFor(
      () => {
        throw new Error('connection refused');
      },
      { timeoutMs: 30, intervalMs: 5, description: 'the broker' },
    );
    await expect(failing).rejects.toThrow(
      /timed out after 30 ms waiting for the broker \(last error: connection refused\)/,
    );
  });
});
