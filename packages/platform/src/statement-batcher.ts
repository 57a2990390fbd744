import DataLoader from 'dataloader';

export interface StatementBatcherOptions {
  /** Items one statement writes at most. */
  maxBatchSize: number;
}

/**
 * Writes that arrive in the same turn of the event loop (say, the answers read in one poll of the sockets),
 * made by one statement: DataLoader collects them until the loop's check phase, so under load one statement
 * and one commit serve many callers, and a caller alone is served as soon as before. `writeAll` answers each
 * item in order. A batch that fails is written again one item at a time, so that an item's error stays its
 * own and the others still go through.
 */
export class StatementBatcher<Item, Result> {
  private readonly loader: DataLoader<Item, Result>;

  constructor(
    private readonly writeAll: (items: readonly Item[]) => Promise<Result[]>,
    options: StatementBatcherOptions,
  ) {
    this.loader = new DataLoader((items) => this.writeBatch(items), {
      cache: false,
      maxBatchSize: options.maxBatchSize,
      batchScheduleFn: (dispatch) => setImmediate(dispatch),
    });
  }

  /** Resolves with the item's own answer once the statement that wrote it committed. */
  write(item: Item): Promise<Result> {
    return this.loader.load(item);
  }

  private async writeBatch(items: readonly Item[]): Promise<(Result | Error)[]> {
    try {
      return await this.writeAll(items);
    } catch (error) {
      if (items.length === 1) throw error;
      return Promise.all(items.map((item) => this.writeAlone(item)));
    }
  }

  private async writeAlone(item: Item): Promise<Result | Error> {
    try {
      const [result] = await this.writeAll([item]);
      if (result === undefined) throw new Error('a batched write answered nothing for its item');
      return result;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}
