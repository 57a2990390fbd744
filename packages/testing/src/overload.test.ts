import { settleRetryingOverload } from './overload';

const unavailable = Object.assign(new Error('busy'), { code: 'service_unavailable' });
const refused = Object.assign(new Error('no'), { code: 'balance_insufficient' });

describe('settleRetryingOverload', () => {
  it('calls again each call answered service_unavailable, until it is answered otherwise', async () => {
    const answers = [[unavailable, unavailable, 'made'], [refused], ['made']];
    const calls = answers.map((queue) =>
      jest.fn(async () => {
        const next = queue.shift();
        if (next instanceof Error) throw next;
        return next;
      }),
    );
    const results = await settleRetryingOverload(calls);
    expect(results).toEqual([
      { status: 'fulfilled', value: 'made' },
      { status: 'rejected', reason: refused },
      { status: 'fulfilled', value: 'made' },
    ]);
    expect(calls.map((call) => call.mock.calls.length)).toEqual([3, 1, 1]);
  });

  it('gives up after maxRetries, leaving the last overload answer', async () => {
    const call = jest.fn(async () => {
      throw unavailable;
    });
    const [result] = await settleRetryingOverload([call], { maxRetries: 2 });
    expect(result).toEqual({ status: 'rejected', reason: unavailable });
    expect(call).toHaveBeenCalledTimes(3);
  });
});
