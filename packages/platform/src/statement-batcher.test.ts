import { setImmediate as nextTurn } from 'node:timers/promises';
import { firstOfEachKey, StatementBatcher } from './statement-batcher';

describe('StatementBatcher', () => {
  /** An error as pg gives it, with Postgres' SQLSTATE. */
  const sqlError = (message: string, code: string) => Object.assign(new Error(message), { code });

  /**
   * Doubles numbers, one call per statement; a negative number fails whatever statement holds it on its data
   * (a check violation), and while `down` every statement fails for want of the database.
   */
  function doubling(maxBatchSize = 10, retryAloneWhen?: (error: unknown) => boolean) {
    const statements: number[][] = [];
    const database = { down: false };
    const batcher = new StatementBatcher<number, number>(
      async (items) => {
        statements.push([...items]);
        if (database.down) throw sqlError('the database system is starting up', '57P03');
        if (items.some((item) => item < 0)) throw sqlError(`negative in ${items.join(',')}`, '23514');
        return items.map((item) => item * 2);
      },
      { maxBatchSize, ...(retryAloneWhen && { retryAloneWhen }) },
    );
    return { batcher, statements, database };
  }

  it('writes what arrives in one turn of the event loop with one statement, each caller its own answer', async () => {
    const { batcher, statements } = doubling();
    await expect(Promise.all([1, 2, 3].map((item) => batcher.write(item)))).resolves.toEqual([2, 4, 6]);
    expect(statements).toEqual([[1, 2, 3]]);
  });

  it('writes what arrives in later turns with statements of their own', async () => {
    const { batcher, statements } = doubling();
    const first = batcher.write(1);
    await nextTurn();
    await nextTurn();
    await expect(Promise.all([first, batcher.write(2)])).resolves.toEqual([2, 4]);
    expect(statements).toEqual([[1], [2]]);
  });

  it('holds a statement to its largest batch', async () => {
    const { batcher, statements } = doubling(2);
    await Promise.all([1, 2, 3, 4, 5].map((item) => batcher.write(item)));
    expect(statements).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('writes a batch that failed on its data again one item at a time, so that only the failing item fails', async () => {
    const { batcher, statements } = doubling();
    const results = await Promise.allSettled([1, -1, 3].map((item) => batcher.write(item)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: sqlError('negative in -1', '23514') },
      { status: 'fulfilled', value: 6 },
    ]);
    expect(statements).toEqual([[1, -1, 3], [1], [-1], [3]]);
  });

  it('keeps an answer of undefined when it writes an item alone', async () => {
    // As a repository answers "not created" for a row that existed.
    const batcher = new StatementBatcher<number, number | undefined>(
      async (items) => {
        if (items.some((item) => item < 0)) throw sqlError('negative', '23514');
        return items.map((item) => (item === 0 ? undefined : item));
      },
      { maxBatchSize: 10 },
    );
    const results = await Promise.allSettled([0, -1, 3].map((item) => batcher.write(item)));
    expect(results).toEqual([
      { status: 'fulfilled', value: undefined },
      { status: 'rejected', reason: sqlError('negative', '23514') },
      { status: 'fulfilled', value: 3 },
    ]);
  });

  it('fails every item of a batch the database could not take, without a statement more', async () => {
    const { batcher, statements, database } = doubling();
    database.down = true;
    const results = await Promise.allSettled([1, 2, 3].map((item) => batcher.write(item)));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(statements).toEqual([[1, 2, 3]]);
  });

  it('writes a batch again one item at a time after the failures retryAloneWhen names', async () => {
    const { batcher, statements, database } = doubling(10, () => true);
    database.down = true;
    const results = await Promise.allSettled([1, 2].map((item) => batcher.write(item)));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(statements).toEqual([[1, 2], [1], [2]]);
  });

  it('fails an item alone when the answer holds an Error in its place', async () => {
    const statements: number[][] = [];
    const batcher = new StatementBatcher<number, number>(
      async (items) => {
        statements.push([...items]);
        return items.map((item) => (item % 2 === 0 ? new Error(`${item} is even`) : item * 10));
      },
      { maxBatchSize: 10, retryAloneWhen: () => false },
    );
    const outcomes = await Promise.allSettled([1, 2, 3].map((item) => batcher.write(item)));
    expect(outcomes).toEqual([
      { status: 'fulfilled', value: 10 },
      { status: 'rejected', reason: new Error('2 is even') },
      { status: 'fulfilled', value: 30 },
    ]);
    expect(statements).toEqual([[1, 2, 3]]);
  });
});

describe('firstOfEachKey', () => {
  it('keeps the first item of each key, in their order, the very items given', () => {
    const items = [
      { key: 'b', n: 1 },
      { key: 'a', n: 2 },
      { key: 'b', n: 3 },
      { key: 'c', n: 4 },
      { key: 'a', n: 5 },
    ];
    const firsts = firstOfEachKey(items, (item) => item.key);
    expect(firsts.map((item) => item.n)).toEqual([1, 2, 4]);
    expect(firsts[0]).toBe(items[0]);
  });
});
