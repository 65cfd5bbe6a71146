/** Where a page starts: after `offset` rows (`pageNumber`), or after the last row of the previous page (a cursor). */
export type PageStart<Key> = { offset: number } | { after: Key };

/** One page of a listing, newest first unless said otherwise. */
export interface Page<Item, Key> {
  items: Item[];
  /** Every row the listing's filter matches, read from counters (migration 012), never by counting rows. */
  total: number;
  /** Whether rows follow this page; `last` is then where the next page starts. */
  hasMore: boolean;
  last: Key | undefined;
}

/** Reads `limit + 1` rows to learn whether more follow without counting them. */
export function pageOf<Row, Item, Key>(rows: Row[], limit: number, total: number, item: (row: Row) => Item, keyOf: (row: Row) => Key): Page<Item, Key> {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  return { items: kept.map(item), total, hasMore, last: hasMore ? keyOf(kept.at(-1)!) : undefined };
}
