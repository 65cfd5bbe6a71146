/** One page as a list's endpoint answers it, with what the iteration needs from it. */
export interface FetchedPage<Item, Page> {
  page: Page;
  items: Item[];
  /** Whether a next page has anything. */
  hasMore: boolean;
}

/**
 * A list call. `await` it for the first page, as the endpoint answers it; `for await` over it for every item of
 * every page, fetched as the loop needs them; or `pages()` for one page at a time. Every list pages the same way,
 * whatever its endpoint's parameters are named (`page`/`perPage`, or the transactions' `pageNumber`/`limit`).
 *
 *     for await (const sale of paykit.transactions.list({ merchant_key })) console.log(sale.amount);
 */
export class PagedList<Item, Page> implements Promise<Page>, AsyncIterable<Item> {
  readonly [Symbol.toStringTag] = 'PagedList';

  constructor(
    private readonly fetchPage: (page: number) => Promise<FetchedPage<Item, Page>>,
    private readonly firstPage = 1,
  ) {}

  /** The first page, asked for once, when first awaited (a list nobody awaits or iterates sends nothing). */
  private first: Promise<Page> | undefined;

  then<A = Page, B = never>(onfulfilled?: ((page: Page) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    this.first ??= this.fetchPage(this.firstPage).then((fetched) => fetched.page);
    return this.first.then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page | B> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page> {
    return this.then().finally(onfinally);
  }

  /** Every page from the first asked for, as the endpoint answers each. */
  async *pages(): AsyncGenerator<Page> {
    for (let number = this.firstPage; ; number++) {
      const fetched = await this.fetchPage(number);
      yield fetched.page;
      if (!fetched.hasMore || fetched.items.length === 0) return;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for (let number = this.firstPage; ; number++) {
      const fetched = await this.fetchPage(number);
      yield* fetched.items;
      if (!fetched.hasMore || fetched.items.length === 0) return;
    }
  }

  /** Every item of every page, in one array; for lists known to be small. */
  async toArray(): Promise<Item[]> {
    const all: Item[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
