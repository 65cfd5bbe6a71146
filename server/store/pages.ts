/** Where a row stands in a listing's order: newest first by `created_at`, ties broken by insertion order. */
export interface ListingKey {
  createdAt: string;
  seq: number;
}
export const keyOf = (row: { created_at: string; seq: number | string }): ListingKey => ({
  createdAt: row.created_at,
  seq: Number(row.seq),
});

/**
 * Where a page's rows start in the order: before `key` (a cursor), from it (a page number's first row), or at the
 * top. `undefined` means the page number lies past the last row.
 */
export type Bound = { key: ListingKey; op: '<' | '<=' } | 'top';
export async function boundOf(
  start: PageStart<ListingKey>,
  keyAtOffset: (offset: number) => Promise<ListingKey | undefined>,
): Promise<Bound | undefined> {
  if ('after' in start) return { key: start.after, op: '<' };
  if (start.offset === 0) return 'top';
  const key = await keyAtOffset(start.offset);
  return key && { key, op: '<=' };
}

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
export function pageOf<Row, Item, Key>(
  rows: Row[],
  limit: number,
  total: number,
  item: (row: Row) => Item,
  keyOf: (row: Row) => Key,
): Page<Item, Key> {
  const hasMore = rows.length > limit;
  const kept = hasMore ? rows.slice(0, limit) : rows;
  return { items: kept.map(item), total, hasMore, last: hasMore ? keyOf(kept.at(-1)!) : undefined };
}
