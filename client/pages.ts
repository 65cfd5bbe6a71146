/** One page as a list's endpoint answers it, with what the iteration needs from it. */
export interface FetchedPage<Item, Page> {
  page: Page;
  items: Item[];
  /** The answer's `next_cursor`: where the next page starts, null on the last page. */
  nextCursor: string | null;
}

/** Which page to ask for: by number, or (after the first) by the previous page's `next_cursor`. */
export interface PageAt {
  page: number;
  cursor?: string | undefined;
}

/**
 * A list call. `await` it for the first page, as the endpoint answers it; `for await` over it for every item of
 * every page, fetched as the loop needs them; or `pages()` for one page at a time. Every list pages the same way,
 * whatever its endpoint's parameters are named (`page`/`perPage`, or the transactions' `pageNumber`/`limit`).
 * After the first page the loop follows each answer's `next_cursor`: each page costs the service its own rows
 * however deep it is, and payments that land meanwhile neither repeat nor hide a row (a page number would shift).
 *
 *     for await (const sale of paykit.transactions.list({ merchant_key })) console.log(sale.amount);
 */
export class PagedList<Item, Page> implements Promise<Page>, AsyncIterable<Item> {
  readonly [Symbol.toStringTag] = 'PagedList';

  private readonly fetchPage: (at: PageAt) => Promise<FetchedPage<Item, Page>>;
  private readonly firstPage: PageAt;

  constructor(fetchPage: (at: PageAt) => Promise<FetchedPage<Item, Page>>, firstPage: PageAt = { page: 1 }) {
    this.fetchPage = fetchPage;
    this.firstPage = firstPage;
  }

  /** The first page, asked for once, when first awaited (a list nobody awaits or iterates sends nothing). */
  private first: Promise<Page> | undefined;

  then<A = Page, B = never>(
    onfulfilled?: ((page: Page) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
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
    for await (const fetched of this.fetched()) yield fetched.page;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for await (const fetched of this.fetched()) yield* fetched.items;
  }

  private async *fetched(): AsyncGenerator<FetchedPage<Item, Page>> {
    let at = this.firstPage;
    for (;;) {
      const fetched = await this.fetchPage(at);
      yield fetched;
      if (!fetched.nextCursor || fetched.items.length === 0) return;
      at = { page: at.page + 1, cursor: fetched.nextCursor };
    }
  }

  /** Every item of every page, in one array; for lists known to be small. */
  async toArray(): Promise<Item[]> {
    const all: Item[] = [];
    for await (const item of this) all.push(item);
    return all;
  }
}
