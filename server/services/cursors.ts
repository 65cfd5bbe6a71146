import { invalid } from '../domain/refusals.ts';
import type { ListingKey, Page } from '../store/pages.ts';

/**
 * `next_cursor`: where the next page starts, opaque to partners (base64url of the last row's place in its listing's
 * order: its `created_at` and insertion number). It says nothing a caller may not see: when a row they were just
 * shown was made, and in which order.
 */
export const cursorFields = (page: Page<unknown, ListingKey>) => ({
  next_cursor: page.last
    ? Buffer.from(JSON.stringify([page.last.createdAt, page.last.seq])).toString('base64url')
    : null,
  has_more: page.hasMore,
});

/** Where a page starts: after the row a cursor names, or after `(pageNumber - 1) * perPage` rows. */
export function pageStart(cursor: string | undefined, pageNumber: number, perPage: number) {
  return cursor === undefined ? { offset: (pageNumber - 1) * perPage } : { after: readCursor(cursor) };
}

/** `created_at` as the service writes it; nothing else reaches a query (PostgreSQL refuses a NUL in text, for one). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The place a cursor names, or a 400 when it is not one a listing gave out. */
export function readCursor(cursor: string): ListingKey {
  let place: unknown;
  try {
    place = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? JSON.parse(Buffer.from(cursor, 'base64url').toString()) : undefined;
  } catch {
    place = undefined;
  }
  if (
    Array.isArray(place) &&
    place.length === 2 &&
    typeof place[0] === 'string' &&
    INSTANT.test(place[0]) &&
    Number.isSafeInteger(place[1]) &&
    place[1] >= 0
  ) {
    return { createdAt: place[0], seq: place[1] };
  }
  throw invalid('cursor must be a next_cursor from an earlier page of this listing.');
}
