import { notifyingAfterCommit, type MessagingClient, type TransactionRunner } from './sql';

const tx = {} as MessagingClient;
const runner: TransactionRunner = { transact: (fn) => fn(tx) };

describe('notifyingAfterCommit', () => {
  it('calls back once the transaction has committed, with its result passed through', async () => {
    const events: string[] = [];
    const notifying = notifyingAfterCommit(runner, () => events.push('committed'));

    const result = await notifying.transact(async (given) => {
      expect(given).toBe(tx);
      events.push('effect');
      return 42;
    });

    expect(result).toBe(42);
    expect(events).toEqual(['effect', 'committed']);
  });

  it('stays silent when the transaction rolls back', async () => {
    const afterCommit = jest.fn();
    const notifying = notifyingAfterCommit(runner, afterCommit);

    await expect(notifying.transact(() => Promise.reject(new Error('rolled back')))).rejects.toThrow(
      'rolled back',
    );
    expect(afterCommit).not.toHaveBeenCalled();
  });
});
