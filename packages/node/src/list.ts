import type { RequestOptions } from './http-client';

/** A page of a list endpoint (spec §2.7): most recent first; more after the last item while has_more. */
export interface Page<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/**
 * What `list()` returns: await it for one page, or iterate it with `for await` to walk every item of every
 * page (each next page asked with starting_after = the last id seen, only when the loop gets there).
 */
export class ListRequest<T extends { id: string }> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: (
      startingAfter: string | undefined,
      options?: RequestOptions,
    ) => Promise<Page<T>>,
    private readonly startingAfter: string | undefined,
    private readonly options: RequestOptions | undefined,
  ) {}

  private firstPage(): Promise<Page<T>> {
    this.first ??= this.fetchPage(this.startingAfter, this.options);
    return this.first;
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let page = await this.firstPage();
    for (;;) {
      yield* page.data;
      const last = page.data.at(-1);
      if (!page.has_more || last === undefined) return;
      page = await this.fetchPage(last.id, this.options);
    }
  }

  /** Every item of every page, at most `limit` of them (a guard against walking a huge history by mistake). */
  async autoPagingToArray({ limit }: { limit: number }): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= limit) break;
      items.push(item);
    }
    return items;
  }
}
