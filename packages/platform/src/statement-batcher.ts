import DataLoader from 'dataloader';

export interface StatementBatcherOptions {
  /** Items one statement writes at most. */
  maxBatchSize: number;
  /**
   * Which failures of a batch make it written again one item at a time. Default: those on the data of one of its
   * rows (isDataError); a batch whose items run code that may fail on any one of them (a consumer's handlers)
   * takes every failure.
   */
  retryAloneWhen?: (error: unknown) => boolean;
}

/**
 * Whether a failed statement failed on the data of one of its rows (Postgres' classes 22, data exceptions, and
 * 23, integrity constraint violations) rather than for want of the database.
 */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/**
 * The first item of each key, in order: what one statement may write when its rows must have distinct keys (two
 * updates of one row in one statement would apply only one of them, unpredictably). A later item of a key is
 * for its caller to answer: as a repeat of the first, or by writing it after.
 */
export function firstOfEachKey<Item>(items: readonly Item[], keyOf: (item: Item) => string): Item[] {
  const firsts = new Map<string, Item>();
  for (const item of items) {
    const key = keyOf(item);
    if (!firsts.has(key)) firsts.set(key, item);
  }
  return [...firsts.values()];
}

/**
 * Writes that arrive in the same turn of the event loop (say, the answers read in one poll of the sockets),
 * made by one statement: DataLoader collects them until the loop's check phase, so under load one statement
 * and one commit serve many callers, and a caller alone is served as soon as before. `writeAll` answers each
 * item in order. A batch that fails on its data is written again one item at a time, so that an item's error
 * stays its own and the others still go through; any other failure (the database down, its pool busy) fails
 * every item at once rather than multiplying the statements when the database can least take them (unless
 * `retryAloneWhen` says otherwise). An Error that `writeAll` answers in an item's place fails that item alone.
 */
export class StatementBatcher<Item, Result> {
  private readonly loader: DataLoader<Item, Result>;
  private readonly retryAloneWhen: (error: unknown) => boolean;

  constructor(
    private readonly writeAll: (items: readonly Item[]) => Promise<(Result | Error)[]>,
    options: StatementBatcherOptions,
  ) {
    this.retryAloneWhen = options.retryAloneWhen ?? isDataError;
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
      if (items.length === 1 || !this.retryAloneWhen(error)) throw error;
      return Promise.all(items.map((item) => this.writeAlone(item)));
    }
  }

  private async writeAlone(item: Item): Promise<Result | Error> {
    try {
      // An answer may itself be undefined (say, "nothing created"): the count is what is checked.
      const results = await this.writeAll([item]);
      if (results.length !== 1) throw new Error(`a write of one item answered ${results.length} times`);
      return results[0] as Result | Error;
    } catch (error) {
      return error instanceof Error ? error : new Error(String(error));
    }
  }
}
