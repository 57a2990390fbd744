import { setImmediate as nextTurn } from 'node:timers/promises';
import { StatementBatcher } from './statement-batcher';

describe('StatementBatcher', () => {
  /** Doubles numbers, one call per statement; a negative number fails whatever statement holds it. */
  function doubling(maxBatchSize = 10) {
    const statements: number[][] = [];
    const batcher = new StatementBatcher<number, number>(
      async (items) => {
        statements.push([...items]);
        if (items.some((item) => item < 0)) throw new Error(`negative in ${items.join(',')}`);
        return items.map((item) => item * 2);
      },
      { maxBatchSize },
    );
    return { batcher, statements };
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

  it('writes a failed batch again one item at a time, so that only the failing item fails', async () => {
    const { batcher, statements } = doubling();
    const results = await Promise.allSettled([1, -1, 3].map((item) => batcher.write(item)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'rejected', reason: new Error('negative in -1') },
      { status: 'fulfilled', value: 6 },
    ]);
    expect(statements).toEqual([[1, -1, 3], [1], [-1], [3]]);
  });
});
